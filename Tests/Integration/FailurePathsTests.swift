import Foundation
import POILock
import POIServer
import POISockets
import POITestSupport
import PortableTestSupport
import Testing

@testable import POILocation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every failure path of the sockets' operations gives back what it took.
///
/// Each system call an operation makes is failed at its first, its second and its last call, and the seam's ledger
/// must be empty after (no descriptor open, no address list held, nothing closed twice). Counted through the seam, so that it holds on macOS, which has no
/// `/proc` to count descriptors in, and beside the other tests, whose descriptors it does not count.
@Suite("Failure paths give back what they took", .timeLimit(.minutes(1)))
struct FailurePathsTests {
    static func deadline() -> ContinuousClock.Instant { .now.advanced(by: .seconds(10)) }

    /// Holds the operation to having made, in its dry run, a call of every kind the test fails: a kind it never made
    /// would be a failure path the test only seems to try.
    static func expectEveryCallTried(
        _ trials: [FailurePaths.Trial], _ codes: [SystemCallFaults.Call: Int32],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let untried = Set(codes.keys).subtracting(trials.compactMap(\.call))
        #expect(untried.isEmpty, "the dry run made no call of \(untried)", sourceLocation: sourceLocation)
    }

    /// Reads `socket` until its peer ends it (closed or reset); throws `.timedOut` if it has not within 2 s.
    static func readToEnd(_ socket: SocketDescriptor) throws(SocketError) {
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        while true {
            do throws(SocketError) {
                _ = try Socket.receive(from: socket, deadline: deadline)
            } catch .closed, .reset {
                return
            }
        }
    }

    @Test("A connect (to localhost: each address it resolves to in turn) gives back its address list and its sockets")
    func connect() throws {
        let listener = try SocketListener()
        defer { listener.stop() }
        let codes: [SystemCallFaults.Call: Int32] = [
            .resolve: EAI_NONAME, .socket: EMFILE, .connect: ECONNREFUSED, .poll: ENOMEM,
        ]
        let trials = try FailurePaths.each(
            failing: codes,
            operation: { injector in
                let socket = try? Socket.connect(
                    host: "localhost", port: listener.port, deadline: Self.deadline(), faults: injector.faults)
                guard let socket else { return }  // no connection: nothing to accept
                socket.close()
                listener.accept()?.close()
            },
            check: { injector, trial in
                #expect(injector.gaveEverythingBack, "\(trial): \(injector.leftovers)")
            })
        Self.expectEveryCallTried(trials, codes)
    }

    @Test("A listen gives back its address list, its socket and its wake pipe, whichever step fails")
    func listen() throws {
        let codes: [SystemCallFaults.Call: Int32] = [
            .resolve: EAI_NONAME, .socket: EMFILE, .bind: EADDRINUSE, .listen: EADDRINUSE, .pipe: EMFILE,
        ]
        let trials = try FailurePaths.each(
            failing: codes,
            operation: { injector in
                (try? SocketListener(faults: injector.faults))?.stop()
            },
            check: { injector, trial in
                #expect(injector.gaveEverythingBack, "\(trial): \(injector.leftovers)")
            })
        Self.expectEveryCallTried(trials, codes)
    }

    @Test("An accepted connection, an exchange and a lingering close give back every descriptor, whichever call fails")
    func acceptAndExchange() throws {
        let codes: [SystemCallFaults.Call: Int32] = [
            .pollListener: ENOMEM, .accept: EMFILE, .send: EPIPE, .receive: ECONNRESET, .poll: ENOMEM,
            .shutdown: ENOTCONN,
        ]
        let trials = try FailurePaths.each(
            failing: codes,
            operation: { injector in
                // Waits for descriptors are recorded, not waited out.
                let listener = try SocketListener(faults: injector.faults, pause: { _ in })
                defer { listener.stop() }
                let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
                defer { client.close() }
                try Socket.send(Array("hello\n".utf8), to: client)
                guard let server = listener.accept() else { return }
                _ = try? Socket.receive(from: server, deadline: Self.deadline())
                _ = try? Socket.send(Array("hi\n".utf8), to: server)
                client.close()  // the lingering close reads to the client's end, at once
                Socket.closeLingering(server, discardingAtMost: 1024, until: Self.deadline())
                #expect(server.isClosed, "\(injector.leftovers)")
            },
            check: { injector, trial in
                #expect(injector.gaveEverythingBack, "\(trial): \(injector.leftovers)")
            })
        Self.expectEveryCallTried(trials, codes)
    }

    @Test("The stub server gives back each connection's descriptor and its slot, whichever call fails while it serves")
    func stubServer() throws {
        let codes: [SystemCallFaults.Call: Int32] = [
            .pollListener: ENOMEM, .accept: EMFILE, .poll: ENOMEM, .receive: ECONNRESET, .send: EPIPE,
        ]
        let request = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        let trials = try FailurePaths.each(
            failing: codes,
            operation: { injector in
                var configuration = StubServer.Configuration()
                configuration.faults = injector.faults
                configuration.acceptPause = { _ in }
                // One slot: the accept loop ends only once the last connection has given its slot and descriptor back.
                configuration.maximumConnections = 1
                let server = try StubServer(configuration: configuration)
                var stopped = false
                defer { if !stopped { server.stop() } }
                for _ in 0..<2 {  // the second connection is accepted only if the first gave its slot back
                    let client = try Socket.connect(host: "127.0.0.1", port: server.port, deadline: Self.deadline())
                    defer { client.close() }
                    try Socket.send(request, to: client)
                    // Answered or not, the connection ends: a connection left open, or one never accepted, times out.
                    try Self.readToEnd(client)
                }
                server.stop()
                try boundedWait("the server's stop") { server.waitUntilStopped() }
                stopped = true
            },
            check: { injector, trial in
                #expect(injector.gaveEverythingBack, "\(trial): \(injector.leftovers)")
            })
        Self.expectEveryCallTried(trials, codes)
    }

    @Test("The gpsd client gives back its address list and its socket, whichever call fails on its way to a fix")
    func gpsdClient() throws {
        let fix = #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"lat":37.3293,"lon":-121.8893}"#
        let gpsd = try FakeGPSD(script: [#"{"class":"VERSION","release":"3.22"}"#, fix])
        defer { gpsd.stop() }
        let codes: [SystemCallFaults.Call: Int32] = [
            .resolve: EAI_NONAME, .socket: EMFILE, .connect: ECONNREFUSED, .poll: ENOMEM, .send: EPIPE,
            .receive: ECONNRESET,
        ]
        let trials = try FailurePaths.each(
            failing: codes,
            operation: { injector in
                _ = GPSDLocationFetcher(host: "127.0.0.1", port: gpsd.port, faults: injector.faults).fetchPosition()
            },
            check: { injector, trial in
                #expect(injector.gaveEverythingBack, "\(trial): \(injector.leftovers)")
            })
        Self.expectEveryCallTried(trials, codes)
    }
}
