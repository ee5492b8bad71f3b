import PortableTestSupport
import Testing

@testable import POISockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls' edges over loopback: the smallest transfer, a peer that is gone, the line limit, a name's
/// several addresses, IPv6.
@Suite("Socket over loopback", .timeLimit(.minutes(1)))
struct SocketTests {
    static let deadline: @Sendable () -> ContinuousClock.Instant = { .now.advanced(by: .seconds(10)) }

    /// A connected pair over a listener of its own: the client's end and the server's.
    static func pair() throws -> (client: SocketDescriptor, server: SocketDescriptor, listener: SocketListener) {
        let listener = try SocketListener()
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: deadline())
        guard let server = listener.accept() else { throw SocketError.closed }
        return (client, server, listener)
    }

    @Test("One byte is sent and received as one byte")
    func oneByte() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([0x41], to: client)
        #expect(try Socket.receive(from: server, deadline: Self.deadline()) == [0x41])
    }

    @Test("A deadline already passed takes what has arrived, and with nothing there is .timedOut at once")
    func passedDeadline() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        #expect(throws: SocketError.timedOut) { try Socket.receive(from: server, deadline: .now) }
        try Socket.send([0x42], to: client)
        #expect(try Socket.receive(from: server, deadline: Self.deadline()) == [0x42])
    }

    @Test("Sending to a peer that closed throws, and does not retry for ever")
    func peerGone() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        server.close()
        // The first sends may still be accepted into the socket's buffer; the peer's reset makes a later one fail.
        let error = #expect(throws: SocketError.self) {
            for _ in 0..<10_000 { try Socket.send([UInt8](repeating: 0, count: 4096), to: client) }
        }
        #expect(error != .closed)  // an I/O error from the system, not the descriptor's own `.closed`
    }

    @Test("A peer that closes with bytes of ours unread resets the connection: receive throws .reset, not .closed")
    func reset() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([0x43], to: client)
        try Socket.waitUntilReadable(server, until: Self.deadline())  // the byte is there, unread, when it closes
        server.close()
        let error = #expect(throws: SocketError.self) {
            while true { _ = try Socket.receive(from: client, deadline: Self.deadline()) }
        }
        #expect(error == .reset)
    }

    @Test("A peer that closes after reading everything ends the stream: receive throws .closed")
    func orderlyClose() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([0x44], to: client)
        #expect(try Socket.receive(from: server, deadline: Self.deadline()) == [0x44])
        server.close()
        #expect(throws: SocketError.closed) { try Socket.receive(from: client, deadline: Self.deadline()) }
    }

    @Test("receive takes at most the bytes it is asked for, and more than 4 KiB when asked for more")
    func receiveMaximum() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([UInt8](repeating: 0x49, count: 10_000), to: client)
        try Socket.waitUntilReadable(server, until: Self.deadline())
        #expect(try Socket.receive(from: server, maximum: 10, deadline: Self.deadline()).count == 10)
        var rest: [UInt8] = []
        while rest.count < 9_990 {
            rest += try Socket.receive(from: server, maximum: 9_990 - rest.count, deadline: Self.deadline())
        }
        #expect(rest.count == 9_990)
        // One read of what arrived together: over loopback the 10,000 bytes came as one segment.
        try Socket.send([UInt8](repeating: 0x4A, count: 10_000), to: client)
        try Socket.waitUntilReadable(server, until: Self.deadline())
        #expect(try Socket.receive(from: server, maximum: 20_000, deadline: Self.deadline()).count > 4096)
    }

    @Test("waitUntilReadable returns once bytes are there, and throws .timedOut at its deadline while none are")
    func waitUntilReadable() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        #expect(throws: SocketError.timedOut) { try Socket.waitUntilReadable(server, until: .now) }
        try Socket.send([0x4B], to: client)
        try Socket.waitUntilReadable(server, until: Self.deadline())
        #expect(try Socket.receive(from: server, deadline: .now) == [0x4B])
    }

    @Test("A lingering close discards up to its cap and then ends the stream: at exactly the cap, no reset and no wait")
    func lingeringCloseAtTheCap() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([UInt8](repeating: 0x45, count: 1000), to: client)
        let started = ContinuousClock.now
        // The client keeps its side open: only the cap ends the lingering before its deadline, 20 s away.
        Socket.closeLingering(server, discardingAtMost: 1000, until: started.advanced(by: .seconds(20)))
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(server.isClosed)  // the lingering close closes the descriptor, whatever ended the lingering
        #expect(throws: SocketError.closed) { try Socket.receive(from: client, deadline: Self.deadline()) }
        // Closed with nothing left unread: no reset, so the client's next send is still taken (one past the cap, or
        // short of it, would have reset the connection, and this send would fail).
        #expect(throws: Never.self) { try Socket.send([0x48], to: client) }
    }

    @Test("A lingering close stops discarding at its cap: past it, the client's connection is reset")
    func lingeringClosePastTheCap() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        try Socket.send([UInt8](repeating: 0x46, count: 1500), to: client)
        try Socket.waitUntilReadable(server, until: Self.deadline())
        Socket.closeLingering(server, discardingAtMost: 1000, until: Self.deadline())
        // The end of the stream came first (the sending side was shut), then the reset for the 500 bytes left
        // unread. The reset travels on its own (under load it lands after `closeLingering` returns): wait for its
        // error, then the client's next send fails. After a clean close no reset comes, and a first send is taken.
        #expect(try Self.isReset(client, until: Self.deadline()), "no reset reached the client")
        #expect(throws: SocketError.self) { try Socket.send([0x47], to: client) }
    }

    /// Whether `socket`'s connection is reset before `deadline`: the reset's error is pending on the socket.
    ///
    /// The wait asks `poll` for what both systems report, the socket readable (`POLLIN`), and no event tells a reset
    /// apart on both: Darwin reports the peer's end of the stream as `POLLHUP` already, and a reset as nothing more
    /// (xnu's `poll_callback`); asked for no event at all it reports nothing, not even a hang-up, and sleeps to its
    /// time-out (xnu's `poll_nocancel` watches only the events asked for). So each time the socket is readable the wait
    /// reads the pending error (`SO_ERROR`), which a reset sets on both. Once the stream has ended the socket stays
    /// readable, and the loop reads the error again until the reset lands (under load, after `closeLingering` returns)
    /// or the deadline passes.
    static func isReset(_ socket: SocketDescriptor, until deadline: ContinuousClock.Instant) throws(SocketError)
        -> Bool
    {
        while true {
            let pending = try socket.use { number throws(SocketError) -> Int32 in
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(number, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { throw .io(systemError()) }
                return error
            }
            if pending != 0 { return true }
            if ContinuousClock.now >= deadline { return false }
            do throws(SocketError) {
                try Socket.waitUntilReadable(socket, until: deadline)
            } catch .timedOut {
                continue  // the error is read once more, then the deadline ends the wait
            }
        }
    }

    @Test("The wait for a reset tells it from the end of the stream, which Darwin's poll reports as a hang-up too")
    func endOfStreamIsNoReset() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        Socket.closeLingering(server, discardingAtMost: 1000, until: .now)  // nothing unread: a clean close
        #expect(throws: SocketError.closed) { try Socket.receive(from: client, deadline: Self.deadline()) }
        // The stream has ended and the socket stays readable: a deadline already passed looks once and says no reset.
        #expect(try Self.isReset(client, until: .now) == false)
    }

    @Test("A lingering close ends its sending side first: the client reads the end of the stream while it lingers")
    func lingeringCloseEndsTheStreamAtOnce() async throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        let lingering = Task.detached {
            try await boundedBlockingCall("the lingering close", within: .seconds(25)) {
                Socket.closeLingering(server, discardingAtMost: 1 << 20, until: .now.advanced(by: .seconds(20)))
            }
        }
        let ending = try await boundedBlockingCall("the client's read of the lingering close", within: .seconds(15)) {
            () -> SocketError? in
            do throws(SocketError) {
                _ = try Socket.receive(from: client, deadline: Self.deadline())
                return nil
            } catch {
                return error
            }
        }
        #expect(ending == .closed)
        client.close()  // the end of the client's stream ends the lingering
        try await lingering.boundedValue("the end of the lingering close, its client gone")
    }

    @Test(
        "A line may grow to 1 MiB; a byte more is an error, not a wait for the rest",
        arguments: [(1 << 20, SocketError.closed), ((1 << 20) + 1, SocketError.io("a line longer than 1 MiB"))]
    )
    func lineLimit(size: Int, expected: SocketError) async throws {
        let listener = try SocketListener()
        defer { listener.stop() }
        try await boundedBlockingCall("the line read up to its limit", within: .seconds(15)) {
            let connection = try LineConnection(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
            guard let server = listener.accept() else { throw SocketError.closed }
            // Another thread writes (a MiB does not fit in the socket buffers) and closes: no newline ever comes.
            BlockingCall.start {
                try? Socket.send([UInt8](repeating: UInt8(ascii: "a"), count: size), to: server)
                server.close()
            }
            #expect(throws: expected) { try connection.readLine(deadline: Self.deadline()) }
        }
    }

    @Test("A line that ends in a later read is found, and so is a short line that came with its end")
    func linesAcrossReads() async throws {
        let listener = try SocketListener()
        defer { listener.stop() }
        try await boundedBlockingCall("the lines read across reads", within: .seconds(15)) {
            let connection = try LineConnection(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
            guard let server = listener.accept() else { throw SocketError.closed }
            defer { server.close() }
            try Socket.send(Array("first\nsec".utf8), to: server)
            #expect(try connection.readLine(deadline: Self.deadline()) == "first")
            // The reader now holds "sec", searched to its end; the rest comes only after the reader asks.
            try connection.send("more\n")
            _ = try Socket.receive(from: server, deadline: Self.deadline())
            try Socket.send(Array("ond\nx\n".utf8), to: server)
            #expect(try connection.readLine(deadline: Self.deadline()) == "second")
            #expect(try connection.readLine(deadline: Self.deadline()) == "x")
        }
    }

    @Test("A long line read in many pieces has each of its bytes searched once for the line's end")
    func eachByteSearchedOnce() async throws {
        let listener = try SocketListener()
        defer { listener.stop() }
        try await boundedBlockingCall("the long line read in pieces", within: .seconds(15)) {
            let connection = try LineConnection(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
            guard let server = listener.accept() else { throw SocketError.closed }
            defer { server.close() }
            // 64 KiB and its end: at least 16 reads of 4096 bytes, each searched only for what it added.
            let line = [UInt8](repeating: UInt8(ascii: "a"), count: 65_536)
            BlockingCall.start { _ = try? Socket.send(line + Array("\nb\n".utf8), to: server) }
            #expect(try connection.readLine(deadline: Self.deadline()).utf8.count == line.count)
            #expect(connection.bytesSearched == line.count + 1)
            #expect(try connection.readLine(deadline: Self.deadline()) == "b")
            #expect(connection.bytesSearched == line.count + 3)
        }
    }

    // A name may resolve to several addresses (localhost: ::1, then 127.0.0.1), and a server need not listen on the
    // first. What a name resolves to is the machine's to say, so two numeric addresses stand in for it.
    @Test("A connection is made to the first address that accepts, after one that refuses")
    func nextAddressAfterARefusal() throws {
        // Bound, not listening: it refuses every connection, and no other process can take its port meanwhile.
        let (refusing, refusingPort) = try Socket.bind(host: "127.0.0.1", port: 0, listening: false)
        defer { refusing.close() }
        let listener = try SocketListener()
        defer { listener.stop() }
        let addresses =
            try Socket.resolve(host: "127.0.0.1", port: refusingPort)
            + Socket.resolve(host: "127.0.0.1", port: listener.port)
        #expect(addresses.count == 2)
        let client = try Socket.connect(toFirstOf: addresses, deadline: Self.deadline())
        defer { client.close() }
        #expect(listener.accept() != nil)
    }

    @Test("A listener on ::1 reports its IPv6 port, and accepts on it", .enabled(if: Self.hasIPv6Loopback))
    func ipv6() throws {
        let listener = try SocketListener(host: "::1")
        defer { listener.stop() }
        #expect(listener.port != 0)
        let client = try Socket.connect(host: "::1", port: listener.port, deadline: Self.deadline())
        defer { client.close() }
        #expect(listener.accept() != nil)
    }

    // MARK: The listen queue and a connect in progress

    @Test(
        "A listener's queue holds backlog + 1 connections nobody accepted (128 + 1 by default); the next waits (Linux)",
        .enabled(if: Self.isLinux), arguments: [0, 2, nil] as [Int32?])
    func listenQueueHoldsTheBacklog(backlog: Int32?) throws {
        let (listener, port) =
            try backlog.map { try Socket.bind(host: "127.0.0.1", port: 0, backlog: $0) }
            ?? Socket.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let queued = try Self.fill(port: port, count: Int(backlog ?? 128) + 1)
        defer { for socket in queued { socket.close() } }
        #expect(throws: SocketError.timedOut) { try Self.connectBriefly(port: port) }
    }

    @Test(
        "A connect still in progress (the peer's queue is full) returns .timedOut at its deadline, not before (Linux)",
        .enabled(if: Self.isLinux))
    func connectInProgressTimesOut() throws {
        let (listener, port) = try Socket.bind(host: "127.0.0.1", port: 0, backlog: 0)
        defer { listener.close() }
        let queued = try Self.fill(port: port, count: 1)
        defer { for socket in queued { socket.close() } }
        // The system drops the next handshake while the queue is full: connect is in progress until its deadline.
        let started = ContinuousClock.now
        #expect(throws: SocketError.timedOut) { try Self.connectBriefly(port: port) }
        let waited = started.duration(to: .now)
        #expect(waited >= Self.briefly, "\(waited)")
        #expect(waited < .seconds(1), "\(waited): the retried handshake comes after 1 s")
    }

    @Test("A connected socket is blocking again, as connect found it: its non-blocking mode was for the connect alone")
    func connectedSocketIsBlocking() throws {
        let (client, server, listener) = try Self.pair()
        defer { listener.stop() }
        defer { client.close() }
        defer { server.close() }
        let flags = try client.use { fcntl($0, F_GETFL, 0) }
        #expect(flags >= 0)
        #expect(flags & O_NONBLOCK == 0)
    }

    @Test("A socket is a stream socket: SOCK_STREAM's number, whether the C library imports it as one or as a case")
    func streamSocketType() throws {
        /// Glibc's shape of a socket type: a case of an enumeration of numbers.
        enum ImportedAsACase: UInt32 { case stream = 1 }
        #expect(socketTypeNumber(Int32(1)) == 1)  // Darwin's shape
        #expect(socketTypeNumber(ImportedAsACase.stream) == 1)
        let (listener, _) = try Socket.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        #expect(try listener.use { getsockopt($0, SOL_SOCKET, SO_TYPE, &type, &length) } == 0)
        #expect(type == systemStreamSocketType)
        #expect(type == 1)  // SOCK_STREAM on Linux and Darwin alike
    }

    @Test("A listening socket can take a port still in TIME_WAIT: it sets SO_REUSEADDR")
    func listenerReusesAddress() throws {
        let (listener, _) = try Socket.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        let status = try listener.use { getsockopt($0, SOL_SOCKET, SO_REUSEADDR, &value, &length) }
        #expect(status == 0)
        #expect(value != 0)
    }

    @Test("A listener takes back its port while a connection it closed first waits in TIME_WAIT on it")
    func listenerRebindsAPortInTimeWait() throws {
        // SO_REUSEADDR must be set before bind: set after, getsockopt still reads it (listenerReusesAddress passes),
        // and this bind fails with "address already in use", as a restarted server would, on every try. A test running
        // beside this one may be given the port in the moment between the close and the new bind (any system hands
        // out a freed port again); that fails one try, not three on three ports in a row, so a failed bind is tried
        // again on a new port, and the test fails when every try did, with each try's error.
        var failures: [String] = []
        for _ in 1...Self.rebindTries {
            let (port, rebound) = try Self.rebindAfterTimeWait(host: "127.0.0.1")
            switch rebound {
            case .success(let again):
                again.descriptor.close()
                #expect(again.port == port)
                return
            case .failure(let error):
                failures.append("port \(port): \(error)")
            }
        }
        Issue.record("the port was not taken back on any of \(Self.rebindTries) tries: \(failures)")
    }

    /// How many times `listenerRebindsAPortInTimeWait` tries, each on a new port.
    static let rebindTries = 3

    /// A listener on a new port of `host`, a connection to it closed by the server's side first (so that the
    /// server's end is the one left in TIME_WAIT), the listener closed: the port, and a new bind of it.
    static func rebindAfterTimeWait(
        host: String
    ) throws -> (port: UInt16, rebound: Result<(descriptor: SocketDescriptor, port: UInt16), SocketError>) {
        let (listener, port) = try Socket.bind(host: host, port: 0)
        let client = try Socket.connect(host: host, port: port, deadline: Self.deadline())
        let accepted = try Socket.accept(listener)
        accepted.close()
        client.close()
        listener.close()
        return (port, Result { () throws(SocketError) in try Socket.bind(host: host, port: port) })
    }

    /// How long `connectBriefly` waits: well under the 1 s after which the system sends a dropped handshake again.
    static let briefly = Duration.milliseconds(100)

    /// Connects to `port`, giving up after `briefly`.
    static func connectBriefly(port: UInt16) throws(SocketError) {
        let client = try Socket.connect(
            host: "127.0.0.1", port: port, deadline: ContinuousClock.now.advanced(by: briefly))
        client.close()
    }

    /// `count` connections to `port`, each made before the next: they wait in its queue, which nobody accepts from.
    static func fill(port: UInt16, count: Int) throws -> [SocketDescriptor] {
        try (0..<count).map { _ in try Socket.connect(host: "127.0.0.1", port: port, deadline: deadline()) }
    }

    /// Whether the system is Linux, whose listen queue holds backlog + 1 connections and drops the next handshake.
    static var isLinux: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// Whether this machine has an IPv6 loopback address (some containers have none).
    static var hasIPv6Loopback: Bool {
        guard let (socket, _) = try? Socket.bind(host: "::1", port: 0, listening: false) else { return false }
        socket.close()
        return true
    }
}
