import Testing

@testable import POISockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What Darwin's profile answers where no socket is needed: its poll reports and watches, send's flags, its words.
///
/// `DarwinEmulationTests`, in the integration tier, hold the rest to real sockets, and `SystemProfileIntegrationTests`
/// show a value the profile does not know stopping the process, in a child process.
@Suite("SystemProfile")
struct SystemProfileTests {
    /// What Darwin's poll reports of a descriptor asked for some events, of which Linux reported others: each case
    /// `(asked, Linux's report, Darwin's)`.
    static let pollReports: [(Int16, Int16, Int16)] = {
        let (input, output, hangUp, error) = (Int16(POLLIN), Int16(POLLOUT), Int16(POLLHUP), Int16(POLLERR))
        let readHangUp: Int16 = 0x2000  // Linux's POLLRDHUP, which Glibc declares only for _GNU_SOURCE
        return [
            (input, input, input),  // bytes
            (input, input | readHangUp, input | hangUp),  // the end of the stream
            (input, input | error | hangUp | readHangUp, input | hangUp),  // a reset: no POLLERR
            (output, output, output),  // room to send
            (output, output | error | hangUp, hangUp),  // no POLLOUT beside a hang-up
            (input | output, input | output | readHangUp, input | hangUp),
            (hangUp, input, 0),  // bytes to POLLHUP alone: fired, with nothing to say
            (hangUp, input | readHangUp, hangUp),
            (0, error | hangUp, 0),  // asked for nothing
            (input, Int16(POLLNVAL), Int16(POLLNVAL)),  // no descriptor
            (Int16(POLLPRI), Int16(POLLPRI), Int16(POLLPRI)),  // urgent bytes
            (Int16(POLLRDNORM), input, Int16(POLLRDNORM)),
            (input | Int16(POLLPRI), input, input),  // no urgent bytes: no POLLPRI
            (input | output, input, input),  // readable, the sending side full: no POLLOUT
        ]
    }()

    @Test(
        "Darwin's poll reports what xnu's poll_callback makes of what Linux reported, for the events asked",
        arguments: pollReports)
    func darwinPollReports(asked: Int16, linux: Int16, darwin: Int16) {
        #expect(DarwinEmulation.revents(asked: asked, linux: linux) == darwin)
    }

    /// What Linux's poll is asked for a descriptor Darwin's is asked some events of: each case `(asked, Linux's)`.
    static let pollWatches: [(Int16, Int16)] = {
        let (input, output, urgent) = (Int16(POLLIN), Int16(POLLOUT), Int16(POLLPRI))
        let reading = input | urgent | 0x2000  // Linux's POLLRDHUP, which Glibc declares only for _GNU_SOURCE
        return [
            (input, reading), (Int16(POLLRDNORM), reading), (urgent, reading), (Int16(POLLHUP), reading),
            (output, output), (Int16(POLLWRBAND), output), (input | output, reading | output), (0, 0),
            (Int16(POLLERR), 0),
        ]
    }()

    @Test(
        "Darwin's poll is watched on Linux for every report its read or write filter could make, and nothing else",
        arguments: pollWatches)
    func darwinPollWatches(asked: Int16, linux: Int16) {
        #expect(DarwinEmulation.linuxEvents(asked: asked) == linux)
    }

    @Test("A send's flags under Darwin's profile leave SIGPIPE to the socket's SO_NOSIGPIPE, whatever the process's")
    func darwinSendFlags() {
        let descriptor: Int32 = -8  // a number no socket has
        #expect(systemSendFlags(descriptor, profile: .darwin) == 0)
        DarwinEmulation.setNoSIGPIPE(descriptor)
        defer { DarwinEmulation.closing(descriptor) }
        #expect(systemSendFlags(descriptor, profile: .darwin) == systemSendFlags(descriptor, profile: .native))
    }

    @Test("A send that failed after a reset fails with EPIPE under Darwin's profile; any other failure as it was")
    func darwinSendFailures() {
        let descriptor: Int32 = -7  // a number no socket has: given SO_NOSIGPIPE, so that no signal is raised
        DarwinEmulation.setNoSIGPIPE(descriptor)
        defer { DarwinEmulation.closing(descriptor) }
        for (failure, darwin) in [(ECONNRESET, EPIPE), (EPIPE, EPIPE), (ECONNREFUSED, ECONNREFUSED), (EAGAIN, EAGAIN)] {
            #expect(DarwinEmulation.sendFailure(failure, on: descriptor) == darwin, "\(failure)")
        }
    }

    @Test("A read's end of the stream stays the end for a descriptor that is no socket, under Darwin's profile")
    func darwinReadOfAPipe() throws {
        let ends = try #require(systemPipe(profile: .native))
        defer { for end in [ends.read, ends.write] { _ = close(end) } }
        #expect(DarwinEmulation.endedRead(ends.read) == nil)
    }

    @Test("The C library's words are Darwin's where they differ (ENOTCONN, EAI_NONAME), and this system's elsewhere")
    func darwinsWords() {
        #expect(systemErrorText(ENOTCONN, profile: .darwin) == "socket is not connected")
        #expect(systemResolutionError(EAI_NONAME, profile: .darwin) == "nodename nor servname provided, or not known")
        for code in [ECONNREFUSED, ECONNRESET, EPIPE, EADDRINUSE, EMFILE] {
            #expect(systemErrorText(code, profile: .darwin) == systemErrorText(code, profile: .native))
        }
    }

}
