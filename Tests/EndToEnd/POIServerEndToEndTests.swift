import Foundation
import POISockets
import POITestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `poi-server` as a process: its first line, its signals, and curl as a client.
@Suite("poi-server, end to end", .timeLimit(.minutes(1)))
struct POIServerEndToEndTests {
    @Test("It prints its URL first, on 127.0.0.1 and a port the system chose, and stops cleanly on SIGINT")
    func sigint() async throws {
        // SIGINT alone: a server that let SIGINT by (pending in a blocked mask, say) would be stopped by no
        // SIGTERM here, but killed five seconds later, and its status would say so.
        let (url, status) = try await Programs.withPOIServer(stopSignal: SIGINT) { server in
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

    static func curl(_ arguments: [String]) async throws -> String {
        try await BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments).standardOutput
    }
}
