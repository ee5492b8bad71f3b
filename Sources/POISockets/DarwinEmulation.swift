import POILock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Darwin's documented socket behaviour, put on the calls of another system (`SystemProfile.darwin`).
///
/// Only what the package depends on and Linux does otherwise. Each is Darwin's as Apple's man pages and XNU's sources
/// (bsd/kern/uipc_socket.c, bsd/kern/sys_socket.c, bsd/kern/sys_generic.c) describe it; docs/macos.md lists them with
/// their sources, among every system call the package makes.
enum DarwinEmulation {
    /// `shutdown` of a listening socket, which Darwin refuses: -1 with `ENOTCONN`; `nil` for any other socket.
    ///
    /// XNU's `soshutdown` refuses a socket that is neither connected nor connecting, and wakes nothing. Darwin shuts
    /// any other socket down as Linux does.
    static func shutdown(_ descriptor: Int32) -> Int32? {
        guard isListening(descriptor) else { return nil }
        errno = ENOTCONN
        return -1
    }

    /// An accepted socket inherits the listener's `O_NONBLOCK`, as in BSD's `accept(2)` (Linux's man page: "does not
    /// inherit file status flags such as O_NONBLOCK").
    static func accepted(_ client: Int32, from listener: Int32) {
        if systemIsNonBlocking(listener) { systemSetNonBlocking(client, true) }
    }

    /// What `fstat` tells of `descriptor`: for a socket, XNU's `soo_stat` gives its type and sizes but no device and no
    /// inode, so no two sockets can be told apart by them.
    static func status(_ status: stat) -> stat {
        guard status.st_mode & S_IFMT == S_IFSOCK else { return status }
        var socket = status
        socket.st_dev = 0
        socket.st_ino = 0
        return socket
    }

    // MARK: poll

    /// The events that make Darwin's `poll` watch a descriptor for reading (a kevent of `EVFILT_READ`) and report it.
    private static let readEvents = Int16(POLLIN | POLLRDNORM | POLLPRI | POLLRDBAND)
    /// The events that make it watch a descriptor for writing (`EVFILT_WRITE`).
    private static let writeEvents = Int16(POLLOUT | POLLWRNORM | POLLWRBAND)
    /// Linux's report that the peer ended its stream, which Glibc declares only for `_GNU_SOURCE` (`<bits/poll.h>`).
    private static let linuxReadHangUp: Int16 = 0x2000

    /// `poll` as Darwin's kernel answers it, for the events the package asks for (xnu, bsd/kern/sys_generic.c).
    ///
    /// `poll_nocancel` turns each descriptor's events into one-shot kevents: a read filter for `POLLIN`, `POLLRDNORM`,
    /// `POLLPRI`, `POLLRDBAND` or `POLLHUP`, a write filter for `POLLOUT`, `POLLWRNORM` or `POLLWRBAND`. A descriptor
    /// asked for none of them is watched for nothing: not even a hang-up or an error wakes the call, which sleeps to its
    /// time-out (Linux reports `POLLHUP` and `POLLERR` whatever was asked). `poll_callback` then says what fired: the
    /// end of a stream (a peer's, or a reset's) as `POLLHUP` with the read events asked for, no `POLLOUT` beside a
    /// hang-up, and no `POLLERR` for a socket's error (Linux: `POLLIN | POLLRDHUP` at the peer's end of the stream,
    /// `POLLHUP | POLLERR` at a reset). A filter that fired and reported nothing is spent for the rest of the call,
    /// which goes on waiting: bytes that reach a descriptor asked for `POLLHUP` alone leave a hang-up after them
    /// unreported (NixOS/nix#13847 and #13901: "as of macOS 15.4, passing 0 or POLLHUP doesn't seem to work at all for
    /// sockets").
    static func poll(_ pollers: inout [pollfd], _ milliseconds: Int32) -> Int32 {
        let deadline = milliseconds < 0 ? nil : ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
        var asked = pollers
        for index in asked.indices {
            asked[index].events = linuxEvents(asked: pollers[index].events)
            pollers[index].revents = 0
            // Watched for nothing, as Darwin registers no kevent for it: Linux ignores a negative descriptor (asked for
            // no event, it would still report a hang-up or an error, which poll_callback makes nothing of).
            if asked[index].events == 0 { asked[index].fd = -1 }
        }
        while true {
            // The time left to the call's deadline, in whole milliseconds, 0 once it passed; -1: no deadline.
            let remaining = deadline.map {
                max(0, Int32(clamping: Int64((ContinuousClock.now.duration(to: $0) / .milliseconds(1)).rounded(.up))))
            }
            let ready = systemPoll(&asked, remaining ?? -1, profile: .native)
            if ready <= 0 { return ready }  // the time-out, or the call's error
            var reported: Int32 = 0
            // Linux sets no revents of a negative descriptor: a spent one is passed over.
            for index in asked.indices where asked[index].revents != 0 {
                pollers[index].revents = revents(asked: pollers[index].events, linux: asked[index].revents)
                if pollers[index].revents != 0 {
                    reported += 1
                } else {
                    asked[index].fd = -1  // fired and reported nothing: spent, as a one-shot kevent is
                }
            }
            if reported > 0 { return reported }
        }
    }

    /// What Linux's `poll` is asked for a descriptor Darwin's is asked `events` of: every report the read filter or the
    /// write filter Darwin registers could make (none: Linux then reports only a hang-up or an error, which Darwin's
    /// `poll_callback` makes nothing of, and the descriptor is spent).
    static func linuxEvents(asked events: Int16) -> Int16 {
        var linux: Int16 = 0
        if events & (readEvents | Int16(POLLHUP)) != 0 { linux |= Int16(POLLIN | POLLPRI) | linuxReadHangUp }
        if events & writeEvents != 0 { linux |= Int16(POLLOUT) }
        return linux
    }

    /// What Darwin's `poll_callback` reports of a descriptor that was asked for `events` and of which Linux reported
    /// `linux` (asked for the events `poll` gives it above).
    static func revents(asked events: Int16, linux: Int16) -> Int16 {
        if linux & Int16(POLLNVAL) != 0 { return Int16(POLLNVAL) }  // not a descriptor: refused as Linux does
        let hangUp = Int16(POLLHUP)
        let error = Int16(POLLERR)
        var revents: Int16 = 0
        let readEnded = linux & (linuxReadHangUp | hangUp) != 0
        if events & (readEvents | hangUp) != 0,
            linux & (Int16(POLLIN | POLLPRI) | linuxReadHangUp | hangUp | error) != 0
        {
            if readEnded {
                revents |= hangUp | events & Int16(POLLIN | POLLRDNORM | POLLPRI | POLLRDBAND)
            } else {
                revents |= events & Int16(POLLIN | POLLRDNORM)
                if linux & Int16(POLLPRI) != 0 { revents |= events & Int16(POLLPRI | POLLRDBAND) }
            }
        }
        if events & writeEvents != 0, linux & (Int16(POLLOUT) | hangUp | error) != 0 {
            if linux & (hangUp | error) != 0 {
                revents |= hangUp  // the sending side can send no more
            } else if revents & hangUp == 0 {
                revents |= events & writeEvents
            }
        }
        return revents
    }

    // MARK: A reset, read and sent

    /// What Darwin's `read` says of a socket whose stream ended and was then reset, where Linux's says 0.
    ///
    /// Darwin says the reset, `ECONNRESET`, taken from the socket: xnu's `soreceive` looks at the socket's error
    /// before at the end of its stream. Linux's `tcp_recvmsg` says the end once the peer's FIN came, and keeps the
    /// reset as `EPIPE`, what `tcp_reset` records in CLOSE_WAIT (xnu's `tcp_input` records `ECONNRESET`). `nil` when no
    /// error is pending, or `descriptor` is no socket.
    static func endedRead(_ descriptor: Int32) -> Int32? {
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length) == 0, pending != 0 else { return nil }
        return pending == EPIPE ? ECONNRESET : pending
    }

    /// The error of a send that failed with `code`, as Darwin's send fails: after a reset with `EPIPE` (xnu's
    /// `sosendcheck` looks at the socket's shut sending side before its error; Linux says `ECONNRESET` first), which
    /// raises SIGPIPE unless the socket has `SO_NOSIGPIPE` (xnu's `sendit`), where Linux's `ECONNRESET` raises nothing.
    static func sendFailure(_ code: Int32, on descriptor: Int32) -> Int32 {
        guard code == ECONNRESET else { return code }
        if !hasNoSIGPIPE(descriptor) { _ = raise(SIGPIPE) }
        return EPIPE
    }

    // MARK: The C library's words

    /// Darwin's words for an error where Darwin's C library words it otherwise than this one, among the errors the
    /// package names (Libc's gen/errlst.c; glibc: "Transport endpoint is not connected").
    static func errorText(_ code: Int32) -> String? {
        code == ENOTCONN ? "Socket is not connected" : nil
    }

    /// Darwin's resolver's words for a failure where they differ from this system's, among the failures the package
    /// names (Libinfo's lookup.subproj/si_getaddrinfo.c, `gai_strerror`; glibc: "Name or service not known").
    static func resolutionErrorText(_ status: Int32) -> String? {
        status == EAI_NONAME ? "nodename nor servname provided, or not known" : nil
    }

    // MARK: SO_NOSIGPIPE

    /// The descriptors given the emulated `SO_NOSIGPIPE`: Linux has no such option, so the emulation keeps the flag
    /// beside the socket, from `setNoSIGPIPE` until the descriptor is closed.
    private static let noSIGPIPE = Lock(Set<Int32>())

    /// Gives `descriptor` Darwin's `SO_NOSIGPIPE`: a write to a peer that hung up fails with `EPIPE`.
    static func setNoSIGPIPE(_ descriptor: Int32) {
        _ = noSIGPIPE.withLock { $0.insert(descriptor) }
    }

    /// Whether `descriptor` was given `SO_NOSIGPIPE`; without it a write to a peer that hung up raises SIGPIPE, as on
    /// Darwin, where `send` has no `MSG_NOSIGNAL`.
    static func hasNoSIGPIPE(_ descriptor: Int32) -> Bool {
        noSIGPIPE.withLock { $0.contains(descriptor) }
    }

    /// Forgets what was set on `descriptor`, which is being closed: its number may come back for another socket.
    static func closing(_ descriptor: Int32) {
        _ = noSIGPIPE.withLock { $0.remove(descriptor) }
    }

    private static func isListening(_ descriptor: Int32) -> Bool {
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 && listening != 0
    }
}
