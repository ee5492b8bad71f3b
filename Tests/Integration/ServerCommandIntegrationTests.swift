import POICommandLine
import POILock
import POIServerCommand
import POISockets
import PortableTestSupport
import Testing

/// poi-server's program run in process: it serves until its injected stop trigger fires, or says it cannot listen.
///
/// No signal is sent, and the test runner's signal mask is left alone.
@Suite("poi-server, in process", .timeLimit(.minutes(1)))
struct ServerCommandIntegrationTests {
    /// What one in-process run wrote: standard output lines, and standard error lines.
    final class Lines: Sendable {
        let output = Lock<[String]>([])
        let errors = Lock<[String]>([])
    }

    @Test("It prints its URL first, answers until the stop trigger fires, then stops with status 0")
    func servesUntilStopped() async throws {
        let (urls, printed) = AsyncStream<String>.makeStream()
        let (stop, stopper) = AsyncStream<Void>.makeStream()
        let command = ServerCommand(output: { printed.yield($0) }, errorOutput: { _ in })
        // bounded: the server's stop trigger, a stream the test finishes below
        async let status = command.run(["--port", "0"], until: { for await _ in stop {} })

        var lines = urls.makeAsyncIterator()
        let url = try #require(try await lines.boundedNext("the server's line with its URL"))
        let port = try #require(UInt16(url.split(separator: ":").last ?? ""))
        #expect(url == "http://127.0.0.1:\(port)")
        let answer = try await boundedBlockingCall("the server's answer to /health", within: .seconds(15)) {
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            let connection = try LineConnection(host: "127.0.0.1", port: port, deadline: deadline)
            try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return try connection.readLine(deadline: deadline)
        }
        #expect(answer == "HTTP/1.1 200 OK")
        stopper.finish()
        #expect(await status == .success)
    }

    @Test("A POI_SYSTEM the sockets cannot follow is a usage error, said before anything listens; darwin is taken")
    func systemProfile() async {
        let lines = Lines()
        let refused = ServerCommand(
            environment: ["POI_SYSTEM": "windows"], output: { _ in Issue.record("nothing is printed") },
            errorOutput: { line in lines.errors.withLock { $0.append(line) } })
        #expect(await refused.run([], until: {}) == .usage)
        #expect(
            lines.errors.withLock { $0 } == [
                "poi-server: POI_SYSTEM: 'windows' is not a system whose sockets can be followed (use darwin, or "
                    + "leave it unset) (see 'poi-server --help')"
            ])
        let urls = Lock<[String]>([])
        let darwin = ServerCommand(
            environment: ["POI_SYSTEM": "darwin"], output: { line in urls.withLock { $0.append(line) } },
            errorOutput: { line in Issue.record("no error expected: \(line)") })
        #expect(await darwin.run(["--port", "0"], until: {}) == .success)
        #expect(urls.withLock { $0 }.first?.hasPrefix("http://127.0.0.1:") == true)
    }

    @Test("A port that is taken is status 71, with the system's reason")
    func cannotListen() async throws {
        let (held, port) = try Socket.bind(host: "127.0.0.1", port: 0)
        defer { held.close() }
        let lines = Lines()
        let command = ServerCommand(
            output: { line in lines.output.withLock { $0.append(line) } },
            errorOutput: { line in lines.errors.withLock { $0.append(line) } }
        )
        let status = await command.run(["--port", "\(port)"], until: {})
        #expect(status == .cannotListen)
        #expect(lines.output.withLock { $0 }.isEmpty)
        let errors = lines.errors.withLock { $0 }
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasPrefix("poi-server: cannot listen on 127.0.0.1:\(port): ") == true,
            "\(errors)")
    }
}
