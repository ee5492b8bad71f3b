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
/// it claims. The whole pyramid runs under the profile in CI (`scripts/ci/stage darwin`).
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
