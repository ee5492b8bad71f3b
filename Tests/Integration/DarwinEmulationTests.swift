import POILock
import POITestSupport
import Testing

@testable import POISockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Darwin's documented socket behaviour as `POI_SYSTEM=darwin` puts it on Linux (`DarwinEmulation`).
///
/// Each behaviour against a real socket, whatever profile this process runs under, so that the profile itself cannot drift from what
/// it claims. The whole pyramid runs under the profile in CI (`scripts/ci/stage darwin`). On a Mac, where the profile
/// emulates nothing, the same tests hold Darwin's own kernel to each row of docs/macos.md's table of system calls.
@Suite("Darwin's socket behaviour, emulated", .timeLimit(.minutes(1)))
struct DarwinEmulationTests {
    static func deadline() -> ContinuousClock.Instant { .now.advanced(by: .seconds(10)) }

    @Test("shutdown of a listening socket fails with ENOTCONN and leaves it listening, as XNU's soshutdown does")
    func shutdownOfAListener() throws {
        let (listener, port) = try Socket.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let refused = try listener.use { number in
            let status = systemShutdown(number, profile: .darwin)
            return (status, errno)
        }
        #expect(refused.0 == -1)
        #expect(refused.1 == ENOTCONN)
        // Still listening: a client is accepted.
        let client = try Socket.connect(host: "127.0.0.1", port: port, deadline: Self.deadline())
        defer { client.close() }
        let accepted = try Socket.accept(listener)
        accepted.close()
    }

    @Test("shutdown of a connected socket is left to the system, which shuts it down on Darwin too")
    func shutdownOfAConnection() throws {
        let listener = try SocketListener()
        defer { listener.stop() }
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: Self.deadline())
        defer { client.close() }
        #expect(try client.use { DarwinEmulation.shutdown($0) } == nil)
    }

    @Test(
        "An accepted socket inherits the listener's O_NONBLOCK, as BSD's accept(2) gives it", arguments: [true, false])
    func acceptedInheritsNonBlocking(listenerNonBlocking: Bool) throws {
        let (listener, port) = try Socket.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let client = try Socket.connect(host: "127.0.0.1", port: port, deadline: Self.deadline())
        defer { client.close() }
        try Socket.waitUntilReadable(listener, until: Self.deadline())
        let accepted = try listener.use { number in
            systemSetNonBlocking(number, listenerNonBlocking)
            return systemAccept(number, profile: .darwin)
        }
        #expect(accepted >= 0)
        defer { _ = close(accepted) }
        #expect(systemIsNonBlocking(accepted) == listenerNonBlocking)
    }

    @Test("fstat of a socket gives no device and no inode, as XNU's soo_stat; of anything else, the system's own")
    func statusOfASocket() {
        var status = stat()
        status.st_dev = 5
        status.st_ino = 7
        status.st_size = 11
        status.st_mode = S_IFSOCK | 0o777
        let socket = DarwinEmulation.status(status)
        #expect(socket.st_dev == 0)
        #expect(socket.st_ino == 0)
        #expect(socket.st_mode == status.st_mode)
        #expect(socket.st_size == 11)
        status.st_mode = S_IFIFO | 0o600
        let pipe = DarwinEmulation.status(status)
        #expect(pipe.st_dev == 5)
        #expect(pipe.st_ino == 7)
    }

    /// A connected pair over a listener of its own, its ends as numbers: the client's and the accepted one's.
    static func connectedPair() throws -> (client: SocketDescriptor, server: SocketDescriptor, listener: SocketListener)
    {
        let listener = try SocketListener()
        let client = try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: deadline())
        guard let server = listener.accept() else { throw SocketError.closed }
        return (client, server, listener)
    }

    /// What `poll` reports of `socket` asked for `events`, without waiting, as Darwin's kernel would: the call's result
    /// and the descriptor's `revents`.
    static func polled(_ socket: SocketDescriptor, _ events: Int32) throws -> (Int32, Int16) {
        try socket.use { number in
            var pollers = [pollfd(fd: number, events: Int16(events), revents: 0)]
            let ready = systemPoll(&pollers, 0, profile: .darwin)
            return (ready, pollers[0].revents)
        }
    }

    /// Waits, as this system reports it, until `socket` is readable: the peer's bytes, its end of the stream or a reset.
    static func waitReadable(_ socket: SocketDescriptor) throws {
        try socket.use { waitReadable(number: $0) }
    }

    /// The same for a descriptor the test holds by its number.
    static func waitReadable(number: Int32) {
        var pollers = [pollfd(fd: number, events: Int16(POLLIN), revents: 0)]
        #expect(systemPoll(&pollers, 10_000, profile: .native) == 1, "the socket never became readable")
    }

    /// A client whose connection the server reset (it closed with three bytes of the client's unread), the reset
    /// already there; and the listener, to stop.
    static func resetClient() throws -> (client: SocketDescriptor, listener: SocketListener) {
        let (client, server, listener) = try connectedPair()
        try Socket.send([1, 2, 3], to: client)
        try waitReadable(server)
        server.close()
        try waitReadable(client)
        return (client, listener)
    }

    @Test(
        "poll with nothing to report sleeps to its time-out (xnu's kqueue_scan): asked for nothing, or for POLLHUP alone and spent by bytes",
        arguments: [0, POLLHUP])
    func pollSleepsToItsTimeOut(events: Int32) throws {
        let (client, server, listener) = try Self.connectedPair()
        defer { listener.stop() }
        defer { client.close() }
        defer { server.close() }
        try Socket.send([1], to: client)  // bytes, which spend a filter asked for POLLHUP alone
        try Self.waitReadable(server)
        let started = ContinuousClock.now
        let said = try server.use { number in
            var pollers = [pollfd(fd: number, events: Int16(events), revents: 0)]
            return (systemPoll(&pollers, 50, profile: .darwin), pollers[0].revents)
        }
        #expect(said == (0, 0))
        #expect(ContinuousClock.now - started >= .milliseconds(50), "the call returned before its time-out")
    }

    @Test(
        "poll counts what it reports: a readable socket, a number that is no descriptor (POLLNVAL); not one asked for nothing, nor -1"
    )
    func pollCountsTheReported() throws {
        let (client, server, listener) = try Self.connectedPair()
        defer { listener.stop() }
        defer { client.close() }
        defer { server.close() }
        try Socket.send([1], to: client)
        try Self.waitReadable(server)
        // Both stay open until the test ends (the defers above). The largest number, which no process's table
        // reaches, is no descriptor (a number just closed could come back for another test's socket).
        var pollers = [
            // no event: the emulation's own test of a descriptor asked for nothing
            pollfd(fd: try client.use { $0 }, events: 0, revents: 0),
            pollfd(fd: try server.use { $0 }, events: Int16(POLLIN), revents: 0),
            pollfd(fd: .max, events: Int16(POLLIN), revents: 0),
            pollfd(fd: -1, events: Int16(POLLIN), revents: 0),
        ]
        #expect(systemPoll(&pollers, 0, profile: .darwin) == 2)
        #expect(pollers.map(\.revents) == [0, Int16(POLLIN), Int16(POLLNVAL), 0])
    }

    @Test("The peer's end of the stream is a hang-up beside POLLIN on Darwin, where Linux reports POLLIN alone")
    func pollAtTheEndOfTheStream() throws {
        let (client, server, listener) = try Self.connectedPair()
        defer { listener.stop() }
        defer { server.close() }
        #expect(try Self.polled(server, POLLIN) == (0, 0))  // nothing yet
        #expect(try Self.polled(server, POLLOUT) == (1, Int16(POLLOUT)))  // room to send
        try Socket.send([9], to: client)
        try Self.waitReadable(server)
        #expect(try Self.polled(server, POLLIN) == (1, Int16(POLLIN)))  // bytes, the stream still open
        #expect(try Socket.receive(from: server, deadline: Self.deadline()) == [9])
        client.close()
        try Self.waitReadable(server)  // nothing left unread: readable at the end of the stream only
        #expect(try Self.polled(server, POLLIN) == (1, Int16(POLLIN | POLLHUP)))
        #expect(try Self.polled(server, POLLIN | POLLOUT) == (1, Int16(POLLIN | POLLHUP)))
    }

    @Test(
        "A reset is a hang-up, never POLLERR, no POLLOUT beside it (xnu's poll_callback); asked for no event, not even a reset (poll_nocancel)"
    )
    func pollAfterAReset() throws {
        let (client, listener) = try Self.resetClient()
        defer { listener.stop() }
        defer { client.close() }
        #expect(try Self.polled(client, POLLIN) == (1, Int16(POLLIN | POLLHUP)))
        #expect(try Self.polled(client, POLLOUT) == (1, Int16(POLLHUP)))
        // Linux reports the hang-up and the error whatever was asked; Darwin's kernel watches nothing.
        #expect(try Self.polled(client, 0) == (0, 0))
        #expect(try Self.polled(client, POLLHUP) == (1, Int16(POLLHUP)))  // POLLHUP alone: a hang-up already there
    }

    @Test(
        "A read at a clean end of the stream reads 0; at an end a reset followed it says the reset (xnu's soreceive), where Linux says 0"
    )
    func readAfterTheEndAndAReset() throws {
        let (client, server, listener) = try Self.connectedPair()
        defer { listener.stop() }
        defer { client.close() }
        try server.use { #expect(systemShutdownSending($0) == 0) }  // the end of the stream first
        try Self.waitReadable(client)
        // A clean end, no reset after it: 0 under Darwin's profile too.
        let clean = try client.use { number in
            var byte: UInt8 = 0
            return systemRead(number, &byte, 1, profile: .darwin)
        }
        #expect(clean == 0)
        try Socket.send([1], to: client)
        try Self.waitReadable(server)
        server.close()  // then a reset: the byte is unread
        // The end of the stream reads as 0 until the reset lands (under load, a moment later), then as the reset.
        let said = try client.use { number -> Int32 in
            let deadline = Self.deadline()
            var byte: UInt8 = 0
            while ContinuousClock.now < deadline {
                var pollers = [pollfd(fd: number, events: Int16(POLLIN), revents: 0)]
                _ = systemPoll(&pollers, 1000, profile: .native)
                if systemRead(number, &byte, 1, profile: .darwin) < 0 { return errno }
            }
            return 0
        }
        #expect(said == ECONNRESET)
    }

    @Test("A send after a reset fails with EPIPE, as xnu's sosendcheck, where Linux says ECONNRESET first")
    func sendAfterAReset() throws {
        let (client, listener) = try Self.resetClient()
        defer { listener.stop() }
        defer { client.close() }
        let failed = try client.use { number -> (Int, Int32) in
            DarwinEmulation.setNoSIGPIPE(number)  // Darwin's option, which keeps the process from SIGPIPE
            defer { DarwinEmulation.closing(number) }
            var byte: UInt8 = 0
            let sent = systemSend(number, &byte, 1, profile: .darwin)
            return (sent, errno)
        }
        #expect(failed == (-1, EPIPE))
    }

    /// On raw sockets, which the package never gave SO_NOSIGPIPE (on a Mac the real option, here the emulated one): a
    /// connection reset, then a send under Darwin's profile, its error read first (as `SocketTests.isReset` reads it:
    /// Linux's send then fails with `EPIPE` and raises SIGPIPE itself, unless the profile's flags tell it not to) or not.
    static func sendAfterAReset(errorReadFirst: Bool) throws {
        let loopback = try SystemProfileIntegrationTests.Loopback(profile: .darwin)
        let (client, server) = try loopback.connection()
        var bytes: [UInt8] = [1, 2, 3]
        #expect(systemSend(client, &bytes, 3, profile: .darwin) == 3)
        waitReadable(number: server)
        _ = close(server)  // three bytes unread: a reset
        waitReadable(number: client)
        if errorReadFirst {
            var pending: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(client, SOL_SOCKET, SO_ERROR, &pending, &length)
        }
        _ = systemSend(client, &bytes, 1, profile: .darwin)
    }

    @Test("A send after a reset raises SIGPIPE without SO_NOSIGPIPE, as Darwin's send does (child process)")
    func sendAfterAResetRaisesSIGPIPE() async {
        await #expect(processExitsWith: .signal(SIGPIPE)) { try Self.sendAfterAReset(errorReadFirst: false) }
    }

    @Test("A send after a reset whose error was read raises SIGPIPE without SO_NOSIGPIPE too (child process)")
    func sendAfterAReadResetRaisesSIGPIPE() async {
        await #expect(processExitsWith: .signal(SIGPIPE)) { try Self.sendAfterAReset(errorReadFirst: true) }
    }

    @Test("SO_NOSIGPIPE is kept for a descriptor until it is closed: its number may come back for another socket")
    func noSIGPIPEUntilClosed() throws {
        let ends = try #require(systemPipe())
        defer { _ = close(ends.write) }
        #expect(!DarwinEmulation.hasNoSIGPIPE(ends.read))
        DarwinEmulation.setNoSIGPIPE(ends.read)
        #expect(DarwinEmulation.hasNoSIGPIPE(ends.read))
        DarwinEmulation.closing(ends.read)
        _ = close(ends.read)
        #expect(!DarwinEmulation.hasNoSIGPIPE(ends.read))
    }

    @Test("A write to a peer that hung up fails, and the process lives: on Darwin SIGPIPE would end it (child process)")
    func writeToAPeerThatHungUp() async {
        // In a child process, which inherits POI_SYSTEM: under Darwin's profile, a socket of the package's that was
        // not given SO_NOSIGPIPE raises SIGPIPE here, and the child dies of it.
        await #expect(processExitsWith: .success) {
            let listener = try SocketListener()
            let chunk = [UInt8](repeating: 0x41, count: 65_536)
            // The accepted end writes to a client that hung up, then a client to an accepted end that did: the first
            // write is taken, the reset it draws makes a later one fail with EPIPE.
            for serverWrites in [true, false] {
                let client = try Socket.connect(
                    host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
                guard let accepted = listener.accept() else { exit(2) }
                let (writer, hungUp) = serverWrites ? (accepted, client) : (client, accepted)
                hungUp.close()
                var failed = false
                for _ in 0..<1000 where !failed {
                    do throws(SocketError) { try Socket.send(chunk, to: writer) } catch { failed = true }
                }
                guard failed else { exit(3) }
                writer.close()
            }
            exit(0)
        }
    }
}
