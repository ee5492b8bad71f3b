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

/// The socket calls' failure paths, which a loopback never takes: each made to run by a `FaultInjector` rule on the
/// sockets of the test alone, over a real loopback connection.
@Suite("Socket calls that fail, made to fail", .timeLimit(.minutes(1)))
struct SystemCallFaultsTests {
    static func deadline() -> ContinuousClock.Instant { .now.advanced(by: .seconds(10)) }

    /// A connection whose client end carries `faults`, with the listener it came through.
    static func pair(clientFaults: SystemCallFaults = .none, serverFaults: SystemCallFaults = .none) throws
        -> (client: SocketDescriptor, server: SocketDescriptor, listener: SocketListener)
    {
        let listener = try SocketListener(faults: serverFaults)
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: deadline(), faults: clientFaults)
        guard let server = listener.accept() else { throw SocketError.closed }
        return (client, server, listener)
    }

    /// Everything the peer sends until it closes.
    static func readAll(_ socket: SocketDescriptor) throws -> [UInt8] {
        var received: [UInt8] = []
        while true {
            let piece = Result { () throws(SocketError) -> [UInt8] in
                try Socket.receive(from: socket, deadline: deadline())
            }
            switch piece {
            case .success(let bytes): received += bytes
            case .failure(.closed): return received
            case .failure(let error): throw error
            }
        }
    }

    // MARK: send

    /// `Socket.send` of `bytes` on a thread of its own, waited for with a bound.
    ///
    /// A send that never ends (one that writes the same piece again and again, till the peer's buffer is full) fails
    /// the test by name. The test closes the client after, which wakes a send still blocked.
    static func boundedSend(_ bytes: [UInt8], to client: SocketDescriptor) throws {
        try boundedWait("the send of all \(bytes.count) bytes") {
            Result { () throws(SocketError) in try Socket.send(bytes, to: client) }
        }.get()
    }

    @Test("send writes every byte through writes of at most 7 bytes, in order")
    func shortWrites() throws {
        let injector = FaultInjector(.shorten(.send, to: 7))
        let (client, server, listener) = try Self.pair(clientFaults: injector.faults)
        defer { listener.stop() }
        defer { client.close() }
        let bytes = (0..<100).map { UInt8($0) }
        try Self.boundedSend(bytes, to: client)
        client.close()
        #expect(try Self.readAll(server) == bytes)
        #expect(injector.count(of: .send) == 15)  // 14 writes of 7 bytes and one of 2
    }

    @Test("send tries again after a write a signal interrupted (EINTR), and loses nothing")
    func interruptedWrite() throws {
        let injector = FaultInjector(.fail(.send, with: EINTR, calls: 1...2), .shorten(.send, to: 3, calls: 3...3))
        let (client, server, listener) = try Self.pair(clientFaults: injector.faults)
        defer { listener.stop() }
        defer { client.close() }
        try Self.boundedSend(Array("hello".utf8), to: client)
        client.close()
        #expect(try Self.readAll(server) == Array("hello".utf8))
        #expect(injector.count(of: .send) == 4)
    }

    @Test("send reports a write that fails (the peer reset) in the system's words, at once")
    func failedWrite() throws {
        let injector = FaultInjector(.fail(.send, with: ECONNRESET, calls: 2...2))
        let (client, _, listener) = try Self.pair(clientFaults: injector.faults)
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([1], to: client)
        #expect(throws: SocketError.io("connection reset by peer")) { try Socket.send([2], to: client) }
        #expect(injector.count(of: .send) == 2)
    }

    // MARK: receive

    @Test("receive tries again after a read interrupted (EINTR) or not ready (EAGAIN)")
    func interruptedRead() throws {
        let injector = FaultInjector(
            .fail(.receive, with: EINTR, calls: 1...1), .fail(.receive, with: EAGAIN, calls: 2...2))
        let (client, server, listener) = try Self.pair(serverFaults: injector.faults)
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send(Array("hi".utf8), to: client)
        #expect(try Socket.receive(from: server, deadline: Self.deadline()) == Array("hi".utf8))
        #expect(injector.count(of: .receive) == 3)
    }

    @Test("receive with short reads gives what arrived a piece at a time, never an empty piece")
    func shortReads() throws {
        let injector = FaultInjector(.shorten(.receive, to: 1))
        let (client, server, listener) = try Self.pair(serverFaults: injector.faults)
        defer { listener.stop() }
        try Socket.send(Array("abc".utf8), to: client)
        client.close()
        #expect(try Socket.receive(from: server, deadline: Self.deadline()) == Array("a".utf8))
        #expect(try Self.readAll(server) == Array("bc".utf8))
    }

    @Test("A reset while reading is .reset; any other read error is .io in the system's words")
    func failedRead() throws {
        let injector = FaultInjector(
            .fail(.receive, with: ECONNRESET, calls: 1...1), .fail(.receive, with: EIO, calls: 2...2))
        let (client, server, listener) = try Self.pair(serverFaults: injector.faults)
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([1, 2], to: client)
        #expect(throws: SocketError.reset) { try Socket.receive(from: server, deadline: Self.deadline()) }
        #expect(throws: SocketError.io("input/output error")) {
            try Socket.receive(from: server, deadline: Self.deadline())
        }
        #expect(try Socket.receive(from: server, deadline: Self.deadline()) == [1, 2])
    }

    @Test("A wait a signal interrupted waits again; a wait that fails otherwise is .io")
    func failedPoll() throws {
        let injector = FaultInjector(.fail(.poll, with: EINTR, calls: 1...1), .fail(.poll, with: ENOMEM, calls: 3...3))
        let (client, server, listener) = try Self.pair(serverFaults: injector.faults)
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([7], to: client)
        #expect(try Socket.receive(from: server, deadline: Self.deadline()) == [7])
        #expect(throws: SocketError.io("cannot allocate memory")) {
            try Socket.receive(from: server, deadline: Self.deadline())
        }
    }

    @Test("A lingering close never reads past its cap, whatever size its reads come in")
    func lingeringCloseWithShortReads() throws {
        let injector = FaultInjector(.shorten(.receive, to: 300))
        let (client, server, listener) = try Self.pair(serverFaults: injector.faults)
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([UInt8](repeating: 0x49, count: 1001), to: client)
        try Socket.waitUntilReadable(server, until: Self.deadline())
        // Reads of 300, 300, 300, then of the 100 the cap leaves: one byte stays unread, so the close resets.
        Socket.closeLingering(server, discardingAtMost: 1000, until: Self.deadline())
        #expect(injector.count(of: .receive) == 4)
        // The reset is there: it reaches the client (under load after closeLingering returns: its error waited for),
        // and the client's next send fails (after a clean close it would still be taken).
        #expect(try SocketTests.isReset(client, until: Self.deadline()), "no reset reached the client")
        #expect(throws: SocketError.self) { try Socket.send([0x4A], to: client) }
    }

    @Test("A lingering close whose shutdown fails closes at once: it reads nothing more and waits for nothing")
    func lingeringCloseWhenShutdownFails() throws {
        let injector = FaultInjector(.fail(.shutdown, with: ENOTCONN))
        let (client, server, listener) = try Self.pair(serverFaults: injector.faults)
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([1, 2, 3], to: client)
        try Socket.waitUntilReadable(server, until: Self.deadline())
        // The client stays open and silent: a lingering close that went on would read the 3 bytes and wait 2 s.
        Socket.closeLingering(server, discardingAtMost: 1000, until: .now.advanced(by: .seconds(2)))
        #expect(injector.faulted(.shutdown) == 1)
        #expect(injector.count(of: .receive) == 0)
        #expect(server.isClosed)
    }

    @Test("A lingering close whose shutdown works reads what the peer sent until the peer closes")
    func lingeringCloseWhenShutdownWorks() throws {
        let injector = FaultInjector()
        let (client, server, listener) = try Self.pair(serverFaults: injector.faults)
        defer { listener.stop() }
        try Socket.send([1, 2, 3], to: client)
        client.close()
        Socket.closeLingering(server, discardingAtMost: 1000, until: Self.deadline())
        #expect(injector.count(of: .shutdown) == 1)
        #expect(injector.count(of: .receive) == 2)  // the 3 bytes, then the end of the stream
        #expect(server.isClosed)
    }

    @Test("Every address list the resolver gives is given back, whether the connect or the listen after it works")
    func addressListsGivenBack() throws {
        let injector = FaultInjector(
            .fail(.connect, with: ECONNREFUSED, calls: 2...2), .fail(.listen, with: EADDRINUSE, calls: 2...2))
        let listener = try SocketListener(faults: injector.faults)
        defer { listener.stop() }
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: Self.deadline(), faults: injector.faults)
        client.close()
        #expect(throws: SocketError.unreachable("connection refused")) {
            try Socket.connect(
                host: "127.0.0.1", port: listener.port, deadline: Self.deadline(), faults: injector.faults)
        }
        #expect(throws: SocketError.self) { try SocketListener(faults: injector.faults) }
        #expect(injector.count(of: .resolve) == 4)
        #expect(injector.count(of: .freeAddresses) == 4)
    }

    // MARK: accept

    @Test("accept passes over a connection reset in the queue (ECONNABORTED) and a call a signal interrupted (EINTR)")
    func acceptPassesOver() throws {
        let injector = FaultInjector(
            .fail(.accept, with: ECONNABORTED, calls: 1...1), .fail(.accept, with: EINTR, calls: 2...2))
        let listener = try SocketListener(faults: injector.faults, pause: { _ in Issue.record("no pause expected") })
        defer { listener.stop() }
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
        defer { client.close() }
        let server = try #require(listener.accept())
        try Socket.send([9], to: server)
        #expect(try Socket.receive(from: client, deadline: Self.deadline()) == [9])
        #expect(injector.count(of: .accept) == 3)
    }

    @Test("A connection accepted as on Darwin, where it inherits the listening socket's O_NONBLOCK, is made blocking")
    func acceptedAsOnDarwinBlocks() throws {
        let injector = FaultInjector(FaultInjector.Rule(.accept, .asOnDarwin))
        // The fault itself: the raw accept of a non-blocking listening socket inherits its mode, as Darwin's does.
        let (bound, port) = try Socket.bind(host: "127.0.0.1", port: 0)
        defer { bound.close() }
        let first = try Socket.connect(host: "127.0.0.1", port: port, deadline: Self.deadline())
        defer { first.close() }
        try Socket.waitUntilReadable(bound, until: Self.deadline())
        let raw = try bound.use { injector.faults.accept($0) }
        #expect(raw >= 0)
        defer { _ = close(raw) }
        #expect(systemIsNonBlocking(raw), "accepted as on Darwin, the client inherits O_NONBLOCK")

        let listener = try SocketListener(faults: injector.faults)
        defer { listener.stop() }
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
        defer { client.close() }
        let server = try #require(listener.accept())
        defer { server.close() }
        #expect(injector.faulted(.accept) == 2)
        #expect(try server.use { systemIsNonBlocking($0) } == false, "a reader would see EAGAIN instead of waiting")
    }

    @Test("An accept that fails otherwise than for want of resources is .closed: nothing to wait for")
    func acceptFailsOtherwise() throws {
        // Socket.accept itself: a listener would take any other error for want of descriptors, and pause.
        let injector = FaultInjector(.fail(.accept, with: EINVAL))
        let (listener, port) = try Socket.bind(host: "127.0.0.1", port: 0, faults: injector.faults)
        defer { listener.close() }
        let client = try Socket.connect(host: "127.0.0.1", port: port, deadline: Self.deadline())
        defer { client.close() }
        #expect(throws: SocketError.closed) { try Socket.accept(listener) }
        #expect(injector.count(of: .accept) == 1)
    }

    @Test("A socket let go without close() is closed as it goes, and the ledger says it was dropped open")
    func droppedSocketIsClosed() throws {
        let injector = FaultInjector()
        let listener = try SocketListener()
        defer { listener.stop() }
        do {
            let client = try Socket.connect(
                host: "127.0.0.1", port: listener.port, deadline: Self.deadline(), faults: injector.faults)
            #expect(injector.openDescriptors.count == 1, "the ledger counts the socket the connect opened")
            #expect(!client.isClosed)
        }
        #expect(injector.droppedOpen == 1)
        #expect(injector.openDescriptors.isEmpty, "\(injector.leftovers)")
    }

    @Test("A wake pipe's two ends are non-blocking and kept from the programs the process starts (FD_CLOEXEC)")
    func wakePipeEnds() throws {
        let ends = try #require(systemPipe())
        defer {
            _ = close(ends.read)
            _ = close(ends.write)
        }
        for end in [ends.read, ends.write] {
            #expect(systemIsNonBlocking(end), "end \(end)")
            #expect(fcntl(end, F_GETFD, 0) & FD_CLOEXEC != 0, "end \(end)")
        }
    }

    @Test("close() while another thread waits to read wakes it: the read ends with .closed, long before its deadline")
    func closeWakesAReader() throws {
        // The reader's wait is known to have begun: its poll is the call the faults hear it about to make. A close
        // just before the poll still wakes it, the shutdown being a state the poll then finds.
        let polling = DispatchSemaphore(value: 0)
        let armed = Lock(false)  // the connect's own wait for the handshake is no reader's
        let faults = SystemCallFaults { call in
            if call == .poll, armed.withLock({ $0 }) { polling.signal() }
            return nil
        }
        let (client, server, listener) = try Self.pair(clientFaults: faults)
        armed.withLock { $0 = true }
        defer {
            server.close()
            listener.stop()
        }
        let read = DispatchSemaphore(value: 0)
        let outcome = Lock<Result<[UInt8], SocketError>?>(nil)
        let started = ContinuousClock.now
        DispatchQueue.global().async {
            let result = Result { () throws(SocketError) -> [UInt8] in
                try Socket.receive(from: client, deadline: .now.advanced(by: .seconds(30)))
            }
            outcome.withLock { $0 = result }
            read.signal()
        }
        #expect(polling.wait(timeout: .now() + 10) == .success, "the reader never waited")
        client.close()
        #expect(read.wait(timeout: .now() + 40) == .success)
        #expect(ContinuousClock.now - started < .seconds(20), "woken by its deadline, not by the close")
        guard case .failure(.closed)? = outcome.withLock({ $0 }) else {
            Issue.record("the read ended with \(String(describing: outcome.withLock { $0 })), not .closed")
            return
        }
    }

    /// Accepts one client through a listener that carries `injector`'s faults and records its pauses instead of
    /// waiting them out; returns the pauses.
    static func acceptRecordingPauses(_ injector: FaultInjector) throws -> [Duration] {
        let pauses = Lock<[Duration]>([])
        let listener = try SocketListener(
            faults: injector.faults, pause: { pause in pauses.withLock { $0.append(pause) } })
        defer { listener.stop() }
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
        defer { client.close() }
        #expect(listener.accept() != nil)
        return pauses.withLock { $0 }
    }

    @Test("A listener's wait a signal interrupted waits again; one that fails otherwise is a pause, then another wait")
    func failedListenerWait() throws {
        let injector = FaultInjector(
            .fail(.pollListener, with: EINTR, calls: 1...1), .fail(.pollListener, with: ENOMEM, calls: 2...2))
        #expect(try Self.acceptRecordingPauses(injector) == [SocketListener.firstPause])
        #expect(injector.count(of: .pollListener) == 3)
        #expect(injector.count(of: .accept) == 1)
    }

    @Test("A listen whose wake pipe cannot be made fails, and gives back its socket and its address list")
    func failedWakePipe() throws {
        let injector = FaultInjector(.fail(.pipe, with: EMFILE))
        #expect(throws: SocketError.io("cannot listen on 127.0.0.1:0: too many open files")) {
            try SocketListener(faults: injector.faults)
        }
        #expect(injector.count(of: .socket) == 1)
        #expect(injector.count(of: .close) == 1)
        #expect(injector.count(of: .freeAddresses) == injector.count(of: .resolve))
    }

    @Test(
        "With no descriptor left, accept waits 10 ms, then twice as long each time up to 1 s, and accepts once they are back",
        arguments: [(EMFILE, 4), (ENFILE, 9), (ENOBUFS, 1), (ENOMEM, 2)])
    func acceptBacksOff(code: Int32, failures: Int) throws {
        let injector = FaultInjector(.fail(.accept, with: code, calls: 1...failures))
        let expected = (0..<failures).map { min(Duration.milliseconds(10 << $0), .seconds(1)) }
        #expect(try Self.acceptRecordingPauses(injector) == expected)
        #expect(injector.count(of: .accept) == failures + 1)
    }

    @Test("stop() during the wait for descriptors ends accept with nil, and nothing is accepted after")
    func stopDuringBackOff() throws {
        let injector = FaultInjector(.fail(.accept, with: EMFILE))
        let holder = Lock<SocketListener?>(nil)
        let listener = try SocketListener(faults: injector.faults, pause: { _ in holder.withLock { $0?.stop() } })
        holder.withLock { $0 = listener }
        defer { holder.withLock { $0 = nil } }  // the listener holds the holder through its pause: break the cycle
        let listening = OpenSockets.sockets(port: listener.port)  // its own socket, while it holds its port
        #expect(listening == nil || listening?.count == 1)
        // A connection waits in the queue: accept fails for want of a descriptor only when there is one to take.
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
        defer { client.close() }
        #expect(listener.accept() == nil)
        #expect(injector.count(of: .accept) == 1)
        // Asked of that socket, not of the port: once stopped, its port is free for a test running beside to bind.
        #expect(listening.flatMap(OpenSockets.stillOpen)?.count ?? 0 == 0)
    }

    @Test("The real wait for descriptors lasts its length: accept tries again only after it")
    func realBackOffWaits() throws {
        let injector = FaultInjector(.fail(.accept, with: EMFILE, calls: 1...1))
        let listener = try SocketListener(
            host: "127.0.0.1", port: 0, backlog: 128, faults: injector.faults, pause: nil,
            firstPause: .milliseconds(150), afterAccept: nil)
        defer { listener.stop() }
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
        defer { client.close() }
        let started = ContinuousClock.now
        #expect(listener.accept() != nil)
        // A wait too short would spin a core (a few microseconds a try). The pause is a semaphore's deadline on the
        // dispatch clock, which may end a fraction of a millisecond before this clock counts 150 ms (149.74 ms in a
        // CI run here): a millisecond's slack, not a spin.
        #expect(started.duration(to: .now) >= .milliseconds(149))
        #expect(injector.count(of: .accept) == 2)
    }

    @Test("The real wait for descriptors ends when the listener stops, not when the wait would")
    func realBackOffEndsAtStop() async throws {
        let injector = FaultInjector(.fail(.accept, with: EMFILE))
        // A first wait of a minute: only stop() ending it lets accept return within the test's time limit.
        let listener = try SocketListener(
            host: "127.0.0.1", port: 0, backlog: 128, faults: injector.faults, pause: nil, firstPause: .seconds(60),
            afterAccept: nil)
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
        defer { client.close() }
        async let accepted = boundedBlockingCall("the waiting accept's wake by stop()") { listener.accept() == nil }
        try await boundedUntil("the listener's first accept") { injector.count(of: .accept) >= 1 }
        listener.stop()
        #expect(try await accepted)
        #expect(injector.count(of: .accept) == 1)  // one try, one wait, ended by stop()
    }

    @Test("stop() between the system's accept and the bookkeeping: accept gives nil and the connection is closed")
    func stopBetweenAcceptAndBookkeeping() throws {
        let holder = Lock<SocketListener?>(nil)
        let listener = try SocketListener(
            host: "127.0.0.1", port: 0, backlog: 128, faults: .none, pause: nil, firstPause: SocketListener.firstPause,
            afterAccept: { holder.withLock { $0?.stop() } })
        holder.withLock { $0 = listener }
        defer { holder.withLock { $0 = nil } }  // the listener holds the holder through afterAccept: break the cycle
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
        defer { client.close() }
        let before = OpenSockets.sockets(port: listener.port)  // the listener and the client's end, the port held
        let clientPort = before?.first { $0.peer == listener.port }?.local
        #expect(listener.accept() == nil)
        // The end the system accepted was closed, not kept: the client reads the end of the stream at once.
        #expect(throws: SocketError.closed) {
            try Socket.receive(from: client, deadline: .now.advanced(by: .seconds(2)))
        }
        // The client's own end, nothing of the listener's: asked of the sockets, not of the freed port, which a test
        // running beside may bind. The accepted end is the one from the listener's port to the client's.
        if let before, let after = OpenSockets.sockets(port: listener.port) {
            #expect(before.count == 2)
            #expect(clientPort != nil)
            #expect(OpenSockets.stillOpen(before)?.map(\.local) == clientPort.map { [$0] })
            #expect(!after.contains { $0.local == listener.port && $0.peer == clientPort })
        }
    }

    // MARK: connect, resolve, bind

    @Test("A name that does not resolve is .unreachable in the resolver's words, for connect and for bind")
    func resolveFails() throws {
        let injector = FaultInjector(.fail(.resolve, with: EAI_NONAME))
        let words = systemResolutionError(EAI_NONAME)
        #expect(throws: SocketError.unreachable(words)) {
            try Socket.connect(host: "127.0.0.1", port: 9, deadline: Self.deadline(), faults: injector.faults)
        }
        #expect(throws: SocketError.unreachable("cannot resolve 127.0.0.1: \(words)")) {
            try SocketListener(faults: injector.faults)
        }
    }

    @Test("No descriptor for a socket: connect is .unreachable and bind .io, each in the system's words")
    func socketFails() throws {
        let injector = FaultInjector(.fail(.socket, with: EMFILE))
        #expect(throws: SocketError.unreachable("too many open files")) {
            try Socket.connect(host: "127.0.0.1", port: 9, deadline: Self.deadline(), faults: injector.faults)
        }
        #expect(throws: SocketError.io("cannot listen on 127.0.0.1:0: too many open files")) {
            try SocketListener(faults: injector.faults)
        }
    }

    @Test("A listen that fails is .io, and leaves no descriptor open")
    func listenFails() throws {
        let injector = FaultInjector(.fail(.listen, with: EADDRINUSE))
        #expect(throws: SocketError.io("cannot listen on 127.0.0.1:0: address already in use")) {
            try SocketListener(faults: injector.faults)
        }
        #expect(injector.count(of: .listen) == 1)
    }

    @Test("A connect that completes at once is a working connection")
    func connectAtOnce() throws {
        let injector = FaultInjector(SystemCallFaultsTests.completeAtOnce)
        let (client, server, listener) = try Self.pair(clientFaults: injector.faults)
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([5], to: client)
        #expect(try Socket.receive(from: server, deadline: Self.deadline()) == [5])
        #expect(injector.faulted(.connect) == 1)
        #expect(injector.count(of: .poll) == 0)  // nothing to wait for: the connect had completed
        #expect(try client.use { systemIsNonBlocking($0) } == false, "a connection is blocking, however it connected")
    }

    static let completeAtOnce = FaultInjector.Rule(.connect, .completeAtOnce)

    /// What a non-blocking connect left: what it returned, whether the socket is still non-blocking, and whether it has
    /// a peer.
    struct ConnectOutcome: Equatable {
        var status: Int32
        var nonBlocking: Bool
        var connected: Bool

        init(_ status: Int32, _ number: Int32) {
            self.status = status
            nonBlocking = systemIsNonBlocking(number)
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            connected = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(number, $0, &length) == 0 }
            }
        }
    }

    @Test("A connect made to complete at once leaves the socket as a real one that completes at once does")
    func completeAtOnceAsForReal() throws {
        // For real: a non-blocking connect of a UNIX-domain socket to a listening one completes before it returns.
        let path = TestScratch.file("completes-at-once", suffix: ".socket").path
        let listening = systemSocket(AF_UNIX)
        let real = systemSocket(AF_UNIX)
        defer {
            for number in [listening, real] { _ = close(number) }
        }
        defer { unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: Array(path.utf8.prefix(bytes.count - 1)) + [0])
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, length) }
        }
        try #require(bound == 0 && listen(listening, 1) == 0)
        systemSetNonBlocking(real, true)
        let realStatus = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(real, $0, length) }
        }
        let forReal = ConnectOutcome(realStatus, real)
        try #require(forReal.status == 0, "Linux's UNIX-domain connect did not complete at once")

        // Simulated: a loopback TCP connect, which for real would be in progress, made to complete at once.
        let listener = try SocketListener()
        defer { listener.stop() }
        let simulated = systemSocket(AF_INET)
        defer { _ = close(simulated) }
        systemSetNonBlocking(simulated, true)
        var server = sockaddr_in()
        server.sin_family = sa_family_t(AF_INET)
        server.sin_port = listener.port.bigEndian
        server.sin_addr.s_addr = inet_addr("127.0.0.1")
        let injector = FaultInjector(Self.completeAtOnce)
        let status = withUnsafePointer(to: &server) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                injector.faults.connect(simulated, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(ConnectOutcome(status, simulated) == forReal)
        #expect(forReal == ConnectOutcome(0, real))  // nothing the first reading changed
    }

    @Test("A connect that fails at once tries the next address, and says the last one's error")
    func connectFails() throws {
        let injector = FaultInjector(.fail(.connect, with: ENETUNREACH))
        let listener = try SocketListener()
        defer { listener.stop() }
        #expect(throws: SocketError.unreachable("network is unreachable")) {
            try Socket.connect(
                host: "127.0.0.1", port: listener.port, deadline: Self.deadline(), faults: injector.faults)
        }
        #expect(OpenSockets.count(port: listener.port) == 1)  // the listener's own: the failed socket was closed
    }
}
