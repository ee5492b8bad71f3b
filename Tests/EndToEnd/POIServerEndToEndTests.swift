import Foundation
import POISockets
import PortableTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `poi-server` as a process: its first line, its signals, and curl as a client.
@Suite("poi-server, end to end", .timeLimit(.minutes(1)))
struct POIServerEndToEndTests {
    @Test(
        "It prints its URL first, on 127.0.0.1 and a port the system chose, and stops cleanly within 2 s of its signal",
        arguments: [SIGINT, SIGTERM])
    func stopSignal(_ signal: Int32) async throws {
        // Each signal alone: a server that let one by (pending in a blocked mask, say) would be stopped by no other
        // here, but killed 2 s later, and its status would say so. On Darwin a listening socket cannot be shut down:
        // a server that waited for that to wake its accept loop would never stop (POI_SYSTEM=darwin puts it on Linux).
        let (url, status) = try await Programs.withPOIServer(stopSignal: signal, killAfter: .seconds(2)) { server in
            server.url
        }
        #expect(url.host == "127.0.0.1")
        #expect((url.port ?? 0) > 0)
        #expect(status == 0)
    }

    @Test("--help and --version answer on stdout with status 0")
    func helpAndVersion() async throws {
        let help = try await BuiltProduct.run("poi-server", ["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("Usage: poi-server [--host ADDRESS]"))
        let version = try await BuiltProduct.run("poi-server", ["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput == "poi-server 1.0.0\n")
    }

    @Test(
        "Bad options: one line on stderr that names poi-server and its help, and status 64",
        arguments: [
            (["--colour"], "unknown option --colour for 'poi-server' (see 'poi-server --help')"),
            (["--version", "2"], "unexpected argument '2' after --version (see 'poi-server --help')"),
            (["--port", "70000"], "--port must be 0...65535, not '70000' (see 'poi-server --help')"),
        ]
    )
    func badOptions(arguments: [String], message: String) async throws {
        let result = try await BuiltProduct.run("poi-server", arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "poi-server: \(message)\n")
    }

    @Test(
        "curl gets the places and the JSON errors",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func curl() async throws {
        let (results, _) = try await Programs.withPOIServer { server in
            let ok = try await Self.curl(["-sS", "-i", "\(server.url)/locations?lat=37.3293&long=-121.8893&limit=1"])
            let bad = try await Self.curl(["-sS", "-i", "\(server.url)/locations?lat=37.3293"])
            let head = try await Self.curl(["-sS", "-I", "\(server.url)/health"])
            return [ok, bad, head]
        }
        #expect(results[0].hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(
            results[0].contains(
                #"[{"category":"venue","coordinate":{"latitude":37.3292,"longitude":-121.8889},"name":"San Jose McEnery Convention Center"}]"#
            ))
        #expect(results[1].hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(results[1].hasSuffix(#"{"error":"long is missing","status":400}"#))
        #expect(results[2].hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(results[2].contains("Content-Length: "))
    }

    @Test(
        "With --data holding [], it serves no place, not the bundled ones: /locations is [], /health counts 0",
        arguments: [InputCase("poi-server --data", .empty, "[], as a process: no place over HTTP", value: "[]")])
    func emptyData(_ input: InputCase<String>) async throws {
        let data = TestScratch.file("places", suffix: "json")
        try Data(input.value.utf8).write(to: data)
        defer { try? FileManager.default.removeItem(at: data) }
        let paths = [
            "/locations?lat=37.3293&long=-121.8893", "/locations?lat=0&long=0&limit=456529149269160342363045888",
            "/health",
        ]
        let (answers, status) = try await Programs.withPOIServer(["--data", data.path]) { server in
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            return try paths.map { try Self.get($0, port: UInt16(server.url.port ?? 0), deadline: deadline) }
        }
        #expect(status == 0)
        for answer in answers.prefix(2) {
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer)")
            #expect(answer.hasSuffix("\r\n\r\n[]"), "\(answer)")
        }
        #expect(answers[2].hasSuffix(#"{"places":0,"status":"ok"}"#), "\(answers[2])")
    }

    @Test(
        "Clients killed mid-request, as many as poi-server serves at once, free their places: /health answers at once",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "bash opens the connections"))
    func clientsKilledMidRequest() async throws {
        // The appendix's limit: at most 64 connections are served at once, the next wait in the backlog. With an idle
        // timeout of a minute, a server that kept the place of a client gone mid-request would answer /health after it.
        let servedAtOnce = 64
        let (answer, _) = try await Programs.withPOIServer(["--idle-timeout", "60"]) { server in
            let port = server.url.port ?? 0
            // One bash opens every connection, sends half a request head on each, and is killed (SIGKILL).
            let script = """
                for fd in $(seq 3 \(servedAtOnce + 2)); do
                  eval "exec $fd<>/dev/tcp/127.0.0.1/\(port)" || exit 1
                  printf 'GET /locations?lat=37.3' >&$fd || exit 1
                done
                kill -KILL $$
                """
            let killed = try await BuiltProduct.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
            #expect(killed.status == 128 + SIGKILL, "bash is killed once every connection is made")
            #expect(killed.standardError.isEmpty, "\(killed.standardError)")
            let started = ContinuousClock.now
            let health = try Self.get("/health", port: UInt16(port), deadline: started.advanced(by: .seconds(10)))
            return (response: health, waited: started.duration(to: .now))
        }
        #expect(answer.response.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer.response)")
        #expect(answer.waited < .seconds(5), "\(answer.waited)")
    }

    /// The whole answer of poi-server on `port` to a GET of `path`, read until it closes the connection.
    static func get(_ path: String, port: UInt16, deadline: ContinuousClock.Instant) throws -> String {
        let client = try Socket.connect(host: "127.0.0.1", port: port, deadline: deadline)
        defer { client.close() }
        try Socket.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), to: client)
        var received: [UInt8] = []
        while true {
            let piece = Result { () throws(SocketError) -> [UInt8] in
                try Socket.receive(from: client, deadline: deadline)
            }
            switch piece {
            case .success(let bytes): received += bytes
            case .failure(.closed): return String(decoding: received, as: UTF8.self)
            case .failure(let error): throw error
            }
        }
    }

    static func curl(_ arguments: [String]) async throws -> String {
        try await BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments).standardOutput
    }
}
