import Dispatch
import POILock
import POITestSupport
import PortableTestSupport
import Testing

@testable import POISockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The owned socket and the listener every server stops with, over loopback.
@Suite("SocketListener and SocketDescriptor over loopback", .timeLimit(.minutes(1)))
struct SocketListenerTests {
    @Test("stop() wakes a thread blocked in accept, and the listener accepts nothing after")
    func stopWakesAccept() async throws {
        let injector = FaultInjector()
        let listener = try SocketListener(faults: injector.faults)
        let thread = Lock<KernelThread?>(nil)
        async let accepted = boundedBlockingCall("the blocked accept's wake by stop()") {
            thread.withLock { $0 = .current() }
            return listener.accept() == nil
        }
        // Blocked in the listener's wait: stopped on its way in, the thread would prove nothing of the wake.
        try await KernelThread.waitUntilAsleep(
            { thread.withLock { $0 } }, after: { injector.count(of: .pollListener) > 0 })
        listener.stop()
        #expect(try await accepted)
        #expect(listener.accept() == nil)
        // The socket and both ends of its wake pipe, once the woken thread has let go of them.
        #expect(injector.count(of: .close) == 3)
    }

    @Test("stop() wakes a thread blocked in waitForConnection, which throws .closed")
    func stopWakesWaitForConnection() async throws {
        let injector = FaultInjector()
        let listener = try SocketListener(faults: injector.faults)
        let thread = Lock<KernelThread?>(nil)
        async let waited: SocketError? = boundedBlockingCall("the blocked waitForConnection's wake by stop()") {
            thread.withLock { $0 = .current() }
            do throws(SocketError) {
                try listener.waitForConnection(until: .now.advanced(by: .seconds(60)))
                return nil
            } catch {
                return error
            }
        }
        try await KernelThread.waitUntilAsleep(
            { thread.withLock { $0 } }, after: { injector.count(of: .pollListener) > 0 })
        listener.stop()
        #expect(try await waited == .closed)
    }

    @Test("A listener no thread waits on is closed at once by stop(), wake pipe and all")
    func stopWithNoThreadWaiting() throws {
        let injector = FaultInjector()
        let listener = try SocketListener(faults: injector.faults)
        listener.stop()
        #expect(injector.count(of: .pipe) == 1)
        #expect(injector.count(of: .close) == 3)
        #expect(injector.count(of: .pollListener) == 0)
        #expect(listener.accept() == nil)
    }

    /// A client of `listener` and the end the listener accepted.
    static func connection(to listener: SocketListener) throws -> (client: SocketDescriptor, server: SocketDescriptor) {
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        guard let server = listener.accept() else {
            client.close()
            throw SocketError.closed
        }
        return (client, server)
    }

    @Test(
        "The listening socket is non-blocking; a connection it accepts is blocking, whatever the system's accept gives")
    func acceptedConnectionsBlock() throws {
        let listener = try SocketListener()
        defer { listener.stop() }
        let (client, server) = try Self.connection(to: listener)
        defer { client.close() }
        defer { server.close() }
        let listening = try Socket.bind(host: "127.0.0.1", port: 0)
        defer { listening.descriptor.close() }
        #expect(try listening.descriptor.use(systemIsNonBlocking))
        // Darwin's accept gives the listener's O_NONBLOCK (as POI_SYSTEM=darwin does on Linux), Linux's does not.
        #expect(try !server.use(systemIsNonBlocking))
    }

    @Test("stop() ends the connections it accepted: a thread blocked reading one gets .closed")
    func stopEndsConnections() async throws {
        let listener = try SocketListener()
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        defer { client.close() }
        let server = try #require(listener.accept())
        async let read: SocketError? = boundedBlockingCall("the blocked read's end by stop()", within: .seconds(15)) {
            do throws(SocketError) {
                _ = try Socket.receive(from: server, deadline: .now.advanced(by: .seconds(10)))
                return nil
            } catch {
                return error
            }
        }
        listener.stop()
        #expect(try await read == .closed)
        #expect(server.isClosed)
    }

    @Test("waitForConnection returns once a client is there, and throws .timedOut at its deadline while none is")
    func waitForConnection() throws {
        let listener = try SocketListener()
        defer { listener.stop() }
        #expect(throws: SocketError.timedOut) { try listener.waitForConnection(until: .now) }
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        defer { client.close() }
        try listener.waitForConnection(until: .now.advanced(by: .seconds(10)))
        #expect(listener.accept() != nil)
    }

    @Test("A connection it accepted writes more than the sockets' buffers hold, waiting for its peer to read")
    func acceptedConnectionWaitsToWrite() async throws {
        let listener = try SocketListener()
        defer { listener.stop() }
        let (client, server) = try Self.connection(to: listener)
        defer { client.close() }
        defer { server.close() }
        let size = 32 << 20  // past what loopback's buffers hold on either side: the writer must wait for the reader
        let writer = Lock<KernelThread?>(nil)
        let wrote = Lock<Result<Void, SocketError>?>(nil)
        BlockingCall.start {
            writer.withLock { $0 = .current() }
            let result = Result { () throws(SocketError) in
                try Socket.send([UInt8](repeating: 7, count: size), to: server)
            }
            wrote.withLock { $0 = result }
        }
        // Nothing is read until the writer has filled the buffers and waits, or has ended (a non-blocking socket's
        // write fails as soon as they are full).
        try await KernelThread.waitUntilAsleep { writer.withLock { $0 } }
        if case .failure(let error)? = wrote.withLock({ $0 }) {
            Issue.record("the write failed instead of waiting for its reader: \(error)")
            return
        }
        var received = 0
        while received < size {
            received += try Socket.receive(from: client, maximum: 1 << 20, deadline: .now.advanced(by: .seconds(10)))
                .count
        }
        #expect(received == size)
        try await boundedUntil("the writer's end") { wrote.withLock { $0 } != nil }
        #expect(throws: Never.self) { try wrote.withLock { $0 }?.get() }
    }

    /// A socket whose closes are counted, and whether each body that ran found its descriptor open.
    final class CountedSocket: Sendable {
        let injector = FaultInjector()
        let socket: SocketDescriptor
        let bodies = Lock<[Bool]>([])

        init() throws {
            socket = try Socket.bind(host: "127.0.0.1", port: 0, listening: false, faults: injector.faults).descriptor
        }

        /// A use whose body asks the system whether the descriptor is open (`fcntl`), as a read or a write would.
        func use() {
            _ = try? socket.use { number in bodies.withLock { $0.append(fcntl(number, F_GETFD) >= 0) } }
        }
    }

    @Test(
        "close() anywhere in a use, or a use anywhere in a close: closed once, never under the use",
        arguments: [true, false])
    func useAndCloseInterleaved(useFirst: Bool) throws {
        try Interleavings.each(
            CountedSocket.init, on: ["SocketDescriptor.state"],
            operation: { useFirst ? $0.use() : $0.socket.close() },
            competing: { useFirst ? $0.socket.close() : $0.use() },
            check: { counted, trial in
                #expect(trial.point == nil || trial.competed, "\(trial): not reached again")
                let closedAlone = trial.point == nil && useFirst
                #expect(counted.injector.count(of: .close) == (closedAlone ? 0 : 1), "\(trial)")
                #expect(
                    counted.bodies.withLock { $0 }.allSatisfy { $0 }, "\(trial): a body found its descriptor closed")
                if closedAlone { counted.socket.close() }
            })
    }

    /// A counted socket with a use in flight on a thread of its own, held inside its body until `endUse()`.
    final class UseInFlight: Sendable {
        let counted: CountedSocket
        private let release = DispatchSemaphore(value: 0)
        private let ended = DispatchSemaphore(value: 0)

        init() throws {
            counted = try CountedSocket()
            let entered = DispatchSemaphore(value: 0)
            let (counted, release, ended) = (counted, release, ended)
            BlockingCall.start {
                _ = try? counted.socket.use { _ in
                    entered.signal()
                    release.wait()  // bounded: the test's own gate, which endUse opens
                }
                ended.signal()
            }
            try entered.waitBounded("the counted socket's use to begin")
        }

        /// Lets the use's body end, and waits until the use has let go of the descriptor (ten seconds at most).
        func endUse() {
            release.signal()
            if ended.wait(timeout: .now() + 10) == .timedOut { Issue.record("the use did not end") }
        }
    }

    @Test("A use that ends anywhere in a close: the descriptor is closed once, by whichever lets go last")
    func useEndsDuringClose() throws {
        try Interleavings.each(
            UseInFlight.init, on: ["SocketDescriptor.state"], operation: { $0.counted.socket.close() },
            competing: { $0.endUse() },
            check: { inFlight, trial in
                #expect(trial.point == nil || trial.competed, "\(trial): not reached again")
                if trial.point == nil { inFlight.endUse() }
                #expect(inFlight.counted.injector.count(of: .close) == 1, "\(trial)")
            })
    }

    /// A listener whose system calls are counted, a client waiting in its queue, and what `accept()` returned.
    final class Accepting: Sendable {
        let injector = FaultInjector()
        let listener: SocketListener
        let client: SocketDescriptor
        let accepted = Lock<SocketDescriptor?>(nil)

        init() throws {
            listener = try SocketListener(faults: injector.faults)
            client = try Socket.connect(
                host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        }

        func accept() {
            let connection = listener.accept()
            accepted.withLock { $0 = connection }
        }
    }

    @Test("stop() anywhere in an accept: nothing accepted stays open, and the listener closes once, pipe and all")
    func acceptAndStopInterleaved() throws {
        try Interleavings.each(
            Accepting.init, on: ["SocketDescriptor.state", "SocketListener.connections"],
            operation: { $0.accept() }, competing: { $0.listener.stop() },
            check: { accepting, trial in
                defer { accepting.client.close() }
                #expect(trial.point == nil || trial.competed, "\(trial): not reached again")
                let accepted = accepting.accepted.withLock { $0 }
                if trial.point == nil {
                    #expect(accepted?.isClosed == false)
                    accepting.listener.stop()  // closes what it accepted
                }
                #expect(accepted == nil || accepted?.isClosed == true, "\(trial): returned open after the stop")
                // The listener's socket and its wake pipe's two ends, and each connection the system accepted: once each.
                #expect(
                    accepting.injector.count(of: .close) == 3 + accepting.injector.count(of: .accept),
                    "\(trial): \(accepting.injector.count(of: .close)) closes")
                // Each closed by its owner: a connection accepted as the stop came is closed by accept, not dropped.
                #expect(accepting.injector.gaveEverythingBack, "\(trial): \(accepting.injector.leftovers)")
                #expect(accepting.listener.accept() == nil, "\(trial)")
            })
    }

    @Test("A port another listener holds cannot be listened on, and the error says why in the system's words")
    func portInUse() throws {
        let holder = try SocketListener()
        defer { holder.stop() }
        #expect(throws: SocketError.io("cannot listen on 127.0.0.1:\(holder.port): address already in use")) {
            try SocketListener(port: holder.port)
        }
    }

    @Test("A closed descriptor is never used again, and closing twice is harmless")
    func closedOnce() throws {
        let (socket, _) = try Socket.bind(host: "127.0.0.1", port: 0)
        socket.close()
        socket.close()
        #expect(throws: SocketError.closed) { try Socket.send([1], to: socket) }
    }

    @Test("A port bound without listening refuses connections while the test holds it")
    func boundButNotListening() throws {
        let (held, port) = try Socket.bind(host: "127.0.0.1", port: 0, listening: false)
        defer { held.close() }
        #expect(throws: SocketError.self) {
            try Socket.connect(host: "127.0.0.1", port: port, deadline: .now.advanced(by: .seconds(10)))
        }
    }

    @Test(
        "A listener's queue holds backlog + 1 connections it has not accepted: its own backlog, else 128 (Linux)",
        .enabled(if: SocketTests.isLinux), arguments: [1, nil] as [Int32?])
    func backlog(backlog: Int32?) throws {
        let listener = try backlog.map { try SocketListener(backlog: $0) } ?? SocketListener()
        defer { listener.stop() }
        let queued = try SocketTests.fill(port: listener.port, count: Int(backlog ?? 128) + 1)
        defer { for socket in queued { socket.close() } }
        #expect(throws: SocketError.timedOut) { try SocketTests.connectBriefly(port: listener.port) }
    }
}
