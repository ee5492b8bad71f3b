import Foundation
import PortableTestSupport
import Testing

@testable import POIServer

/// What the stub server's configuration says without a socket: the URL clients are given.
@Suite("StubServer, without sockets")
struct StubServerTests {
    @Test(
        "The URL names the host the server binds, an IPv6 address in brackets",
        arguments: [
            ("127.0.0.1", "http://127.0.0.1:8080"), ("localhost", "http://localhost:8080"),
            ("::1", "http://[::1]:8080"), ("fe80::1", "http://[fe80::1]:8080"),
        ]
    )
    func url(host: String, url: String) throws {
        var configuration = StubServer.Configuration()
        configuration.host = host
        #expect(configuration.url(port: 8080).absoluteString == url)
    }

    /// Names a thread through `nameThisThread` and returns its name as Foundation has it then; the thread's own name
    /// is given back after.
    ///
    /// A Dispatch thread, not one of `Thread.detachNewThread`: on Linux, Foundation's setter does not always reach a
    /// thread that Foundation has just made (7 of 2,000 such threads here kept the process's name), while one
    /// Foundation meets already running is named every time (0 of 12,000).
    static func foundationName(afterNaming name: String, file: String?) async throws -> String? {
        try await boundedContinuation("the naming thread's name") { continuation in
            DispatchQueue(label: "StubServerTests.naming").async {
                let own = Thread.current.name
                defer { Thread.current.name = own }
                StubServer.nameThisThread(name, file: file)
                continuation.resume(returning: Thread.current.name)
            }
        }
    }

    @Test("A thread's name goes to the system's file for it where there is one, and not through Foundation")
    func threadNamedInItsFile() async throws {
        let file = TestScratch.file("comm")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await Self.foundationName(afterNaming: "stalled midway", file: file.path) != "stalled midway")
        #expect(try String(contentsOf: file, encoding: .utf8) == "stalled midway")
    }

    @Test(
        "A thread's name goes through Foundation where there is no file for it, or the file cannot be written",
        arguments: [nil, "/nonexistent-\(UUID().uuidString)/comm"])
    func threadNamedThroughFoundation(file: String?) async throws {
        #expect(try await Self.foundationName(afterNaming: "stalled midway", file: file) == "stalled midway")
    }

    @Test("The stub server names its threads where this system shows them (Linux: /proc/thread-self/comm)")
    func threadNameFileOfThisSystem() async throws {
        let (file, foundation) = try await boundedContinuation("the naming thread's two names") { continuation in
            DispatchQueue(label: "StubServerTests.naming").async {
                let own = Thread.current.name
                defer { Thread.current.name = own }
                StubServer.nameThisThread("named here")
                let file = StubServer.threadNameFile.map { try? String(contentsOfFile: $0, encoding: .utf8) }
                continuation.resume(returning: (file, Thread.current.name))
            }
        }
        #if os(Linux)
            #expect(file == "named here\n")  // which Foundation's getter reads back, on Linux
        #else
            #expect(file == nil)
        #endif
        #expect(foundation == "named here")
    }
}
