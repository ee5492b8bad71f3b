import Foundation
import POILock
import POIServer
import POITestSupport
import PortableTestSupport
import Testing

@testable import POILocation
@testable import POISockets

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

    /// Asks `injector` for `count` calls of `call`, and returns the numbers of those a rule failed, with the error.
    static func failedCalls(_ injector: FaultInjector, _ call: SystemCallFaults.Call, count: Int) -> [(Int, Int32)] {
        let faults = injector.faults
        return (1...count).compactMap { number in
            guard case .fail(let code) = faults.action(for: call) else { return nil }
            return (number, code)
        }
    }

    @Test("Each trial names the call it failed, which of its kind and the error, and its run failed that call only")
    func trials() throws {
        var failed: [[String]] = []
        let trials = try FailurePaths.each(
            failing: [.send: EPIPE, .receive: ECONNRESET, .accept: EMFILE],
            operation: { injector in
                let sends = Self.failedCalls(injector, .send, count: 3)
                let receives = Self.failedCalls(injector, .receive, count: 1)
                failed.append((sends.map { "send #\($0.0): \($0.1)" } + receives.map { "receive #\($0.0): \($0.1)" }))
            },
            check: { injector, trial in
                #expect(injector.count(of: .send) == 3 && injector.count(of: .receive) == 1, "\(trial)")
            })
        #expect(trials.map(\.call) == [nil, .send, .send, .send, .receive], "no accept made: none failed")
        #expect(trials.map(\.number) == [0, 1, 2, 3, 1])
        #expect(trials.map(\.code) == [0, EPIPE, EPIPE, EPIPE, ECONNRESET])
        #expect(
            trials.map(\.description) == [
                "no call failing", "send #1 failing with \(EPIPE)", "send #2 failing with \(EPIPE)",
                "send #3 failing with \(EPIPE)", "receive #1 failing with \(ECONNRESET)",
            ])
        #expect(
            failed == [
                [], ["send #1: \(EPIPE)"], ["send #2: \(EPIPE)"], ["send #3: \(EPIPE)"], ["receive #1: \(ECONNRESET)"],
            ], "each run failed its trial's call, and no other")
    }

    struct Failed: Error, Equatable {
        let reason: String
    }

    @Test("FailurePaths.calls: the operation's error reaches the caller as it is, and a later count starts afresh")
    func callsOfAThrowingOperation() throws {
        #expect(throws: Failed(reason: "after a send")) {
            try FailurePaths.calls { injector in
                _ = injector.faults.action(for: .send)
                throw Failed(reason: "after a send")
            }
        }
        #expect(FailurePaths.calls { injector in _ = Self.failedCalls(injector, .send, count: 2) } == [.send: 2])
    }

    @Test(
        "FailurePaths.each: an operation or a check that throws ends the call with its error as it is, no later run",
        arguments: ["operation in the dry run", "operation in a trial", "check"])
    func eachWithAThrowingStep(step: String) throws {
        var operations = 0
        var checked: [String] = []
        #expect(throws: Failed(reason: step)) {
            try FailurePaths.each(
                failing: [.send: EPIPE],
                operation: { injector in
                    operations += 1
                    let failed = !Self.failedCalls(injector, .send, count: 3).isEmpty
                    if step == "operation in the dry run" || (step == "operation in a trial" && failed) {
                        throw Failed(reason: step)
                    }
                },
                check: { _, trial in
                    checked.append("\(trial)")
                    if step == "check" && trial.call != nil { throw Failed(reason: step) }
                })
        }
        switch step {
        case "operation in the dry run":
            #expect(operations == 1)
            #expect(checked == [], "a run whose operation threw is not checked")
        case "operation in a trial":
            #expect(operations == 2)
            #expect(checked == ["no call failing"], "a run whose operation threw is not checked")
        default:
            #expect(operations == 2)
            #expect(checked == ["no call failing", "send #1 failing with \(EPIPE)"])
        }
        // Nothing outlives the call: the next one runs every trial.
        let trials = try FailurePaths.each(
            failing: [.send: EPIPE], operation: { _ = Self.failedCalls($0, .send, count: 3) }, check: { _, _ in })
        #expect(trials.count == 4)
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
