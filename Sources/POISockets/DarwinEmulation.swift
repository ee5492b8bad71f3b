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
/// (bsd/kern/uipc_socket.c, bsd/kern/sys_socket.c) describe it; docs/macos.md lists them with their sources.
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
