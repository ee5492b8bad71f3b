import Foundation
import PortableTestSupport
import Testing

@testable import POISockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system profiles where processes start: what a child process inherits, and what stops one.
///
/// Every socket and pipe the package opens is kept from the programs it starts (`FD_CLOEXEC`), from its first moment:
/// at creation on Linux, by `fcntl` right after on Darwin, whose side runs here under Darwin's profile. A value of
/// `POI_SYSTEM` the profile does not know stops the process, since a run meant to try Darwin's behaviour must never
/// pass while following another's: an exit test, in a child process.
@Suite("SystemProfile with processes: close-on-exec, and an unknown profile stopping the program")
struct SystemProfileIntegrationTests {
    @Test("A POI_SYSTEM the process does not know stops it the first time the profile is read, saying why")
    func unknownProfileStops() async {
        // In a child process, where the profile has not been read yet: the variable is set there, before the read.
        let ended = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv(SystemProfile.variable, "linux", 1)
            _ = SystemProfile.current
        }
        let said = String(decoding: ended?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains(SystemProfile.UnknownProfile(value: "linux").description), "\(said)")
    }

    static func closeOnExec(_ descriptor: Int32) -> Bool {
        fcntl(descriptor, F_GETFD, 0) & FD_CLOEXEC != 0
    }

    /// A listening socket on 127.0.0.1 and a free port, made by the seam's calls under `profile`, and connections to
    /// it: the raw descriptors, closed by the test as it chooses.
    struct Loopback {
        let profile: SystemProfile
        let listening: Int32
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)

        init(profile: SystemProfile) throws {
            self.profile = profile
            listening = systemSocket(AF_INET, profile: profile)
            try #require(listening >= 0)
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) { [listening, length] in
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemBind(listening, $0, length) }
            }
            try #require(bound == 0 && systemListen(listening, 2) == 0)
            _ = withUnsafeMutablePointer(to: &address) { [listening] in
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
            }
        }

        /// A connection: the client's end (made by the seam's `socket`) and the server's (by its `accept`).
        func connection() throws -> (client: Int32, server: Int32) {
            var address = address
            let client = systemSocket(AF_INET, profile: profile)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(client, $0, length) }
            }
            try #require(client >= 0 && connected == 0)
            let server = systemAccept(listening, profile: profile)
            try #require(server >= 0)
            return (client, server)
        }
    }

    @Test("The seam's socket, accept and pipe: close-on-exec under each system's profile", arguments: [false, true])
    func seam(darwin: Bool) throws {
        let loopback = try Loopback(profile: darwin ? .darwin : .current)
        defer { _ = close(loopback.listening) }
        #expect(Self.closeOnExec(loopback.listening))
        let (client, accepted) = try loopback.connection()
        defer { for descriptor in [client, accepted] { _ = close(descriptor) } }
        #expect(Self.closeOnExec(client))
        #expect(Self.closeOnExec(accepted))
        let ends = try #require(systemPipe(profile: loopback.profile))
        defer { for descriptor in [ends.read, ends.write] { _ = close(descriptor) } }
        #expect(Self.closeOnExec(ends.read) && Self.closeOnExec(ends.write))
        #expect(systemIsNonBlocking(ends.read) && systemIsNonBlocking(ends.write))
    }

    @Test("On Linux the calls that open a descriptor already close-on-exec are there, so no moment is left open")
    func atomicCallsFound() {
        #if os(Linux)
            #expect(LinuxCalls.accept4 != nil, "accept4 not found: accepted sockets take fcntl's path, with its moment")
            #expect(LinuxCalls.pipe2 != nil, "pipe2 not found: pipes take fcntl's path, with its moment")
        #endif
    }

    /// Starts `/bin/sleep 30` with `posix_spawn` and no file actions: the child gets every descriptor of this
    /// process that is not close-on-exec (Foundation's `Process` would close them for it, and hide a leak).
    static func spawnSleeper() throws -> pid_t {
        struct SpawnFailed: Error, CustomStringConvertible {
            let description: String
        }
        var pid: pid_t = 0
        let arguments = ["/bin/sleep", "30"].map { $0.withCString { strdup($0) } } + [nil]
        defer { for argument in arguments { free(argument) } }
        let status = posix_spawn(&pid, "/bin/sleep", nil, nil, arguments, nil)
        guard status == 0 else { throw SpawnFailed(description: "posix_spawn: \(systemErrorText(status))") }
        return pid
    }

    /// Whether `descriptor` reaches the end of its stream within a second: its peer's every copy is closed.
    static func endsSoon(_ descriptor: Int32) -> Bool {
        var pollers = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        guard systemPoll(&pollers, 1000) == 1 else { return false }
        var byte: UInt8 = 0
        return systemRead(descriptor, &byte, 1) == 0
    }

    @Test(
        "A program started while sockets and a pipe are open holds none of them: closing each ends its peer's stream",
        arguments: [false, true])
    func startedProgramHoldsNone(darwin: Bool) throws {
        let loopback = try Loopback(profile: darwin ? .darwin : .current)
        defer { _ = close(loopback.listening) }
        let first = try loopback.connection()
        let second = try loopback.connection()
        let pipe = try #require(systemPipe(profile: loopback.profile))
        defer { for descriptor in [first.client, second.server, pipe.read] { _ = close(descriptor) } }
        let child = try Self.spawnSleeper()
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        // Closed here without a shutdown: the peer sees the end only if no other process holds a copy.
        _ = close(first.server)
        #expect(Self.endsSoon(first.client), "the started program holds an accepted socket")
        _ = close(second.client)
        #expect(Self.endsSoon(second.server), "the started program holds a connected socket")
        _ = close(pipe.write)
        #expect(Self.endsSoon(pipe.read), "the started program holds the pipe's writing end")
    }
}
