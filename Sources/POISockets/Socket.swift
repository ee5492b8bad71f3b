#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX socket operations the package needs, shared by the gpsd client, the stub server and the test
/// servers.
///
/// The package has no dependencies, so it speaks TCP through the C library (`SystemCalls.swift`). Every socket it
/// makes is a `SocketDescriptor` that closes exactly once. Writes never raise SIGPIPE: a peer that hung up makes a
/// write fail with an error instead of killing the process.
public enum Socket {
    /// Connects to `host`:`port` (a name or a numeric address), giving up at `deadline`; the connection's system
    /// calls go through `faults` (a test's; `.none` otherwise).
    ///
    /// A name may resolve to several addresses (`localhost` to `::1` and `127.0.0.1`); each is tried in turn, and the
    /// first that accepts wins.
    public static func connect(
        host: String, port: UInt16, deadline: ContinuousClock.Instant, faults: SystemCallFaults = .none
    ) throws(SocketError) -> SocketDescriptor {
        try connect(toFirstOf: resolve(host: host, port: port, faults: faults), deadline: deadline, faults: faults)
    }

    /// One address a name resolved to: what `connect(toFirstOf:deadline:)` tries.
    struct Address {
        /// `AF_INET` or `AF_INET6`.
        var family: Int32
        /// The socket address, in storage large enough for either family.
        var storage: sockaddr_storage
        /// How many bytes of `storage` the address takes.
        var length: socklen_t
    }

    /// The addresses of `host`:`port`, in the order the system gives them to try.
    static func resolve(host: String, port: UInt16, faults: SystemCallFaults = .none) throws(SocketError)
        -> [Address]
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = systemStreamSocketType
        var addresses: UnsafeMutablePointer<addrinfo>?
        let status = faults.resolve(host, String(port), &hints, &addresses)
        guard status == 0, let first = addresses else {
            throw .unreachable(systemResolutionError(status))
        }
        defer { faults.freeAddresses(addresses) }
        var resolved: [Address] = []
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            var storage = sockaddr_storage()
            let length = address.pointee.ai_addrlen
            withUnsafeMutableBytes(of: &storage) { bytes in
                bytes.copyMemory(from: UnsafeRawBufferPointer(start: address.pointee.ai_addr, count: Int(length)))
            }
            resolved.append(Address(family: address.pointee.ai_family, storage: storage, length: length))
        }
        return resolved
    }

    /// Connects to the first of `addresses` that accepts, in order, giving up at `deadline`; when none does, throws
    /// the last one's error.
    static func connect(
        toFirstOf addresses: [Address], deadline: ContinuousClock.Instant, faults: SystemCallFaults = .none
    ) throws(SocketError) -> SocketDescriptor {
        var lastError = SocketError.unreachable("no address")
        for address in addresses {
            let number = faults.socket(address.family)
            guard number >= 0 else {
                lastError = .unreachable(systemError())
                continue
            }
            let descriptor = SocketDescriptor(number, faults: faults)
            do throws(SocketError) {
                try descriptor.use { number throws(SocketError) in
                    try connect(number, to: address, deadline: deadline, faults: faults)
                    systemPreventSIGPIPE(number)
                }
                return descriptor
            } catch {
                lastError = error
                descriptor.close()
            }
        }
        throw lastError
    }

    /// Binds `host`:`port` (port 0 lets the system choose) and, unless `listening` is false, listens; returns the
    /// socket and its port.
    ///
    /// A listening socket is non-blocking and has a wake pipe (`SocketDescriptor`): `accept` waits for a connection or
    /// for `close()`, on Linux and Darwin alike. A socket bound without listening holds its port and refuses every
    /// connection: a port that is taken and closed at once, for tests of what happens when nothing answers. Its system
    /// calls, and those of the connections it accepts, go through `faults` (a test's; `.none` otherwise). When a step
    /// fails, what the earlier ones took is given back (the address list, the socket) before the error is thrown.
    public static func bind(
        host: String, port: UInt16, listening: Bool = true, backlog: Int32 = 128, faults: SystemCallFaults = .none
    ) throws(SocketError) -> (descriptor: SocketDescriptor, port: UInt16) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = systemStreamSocketType
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var addresses: UnsafeMutablePointer<addrinfo>?
        let status = faults.resolve(host, String(port), &hints, &addresses)
        guard status == 0, let address = addresses else {
            throw .unreachable("cannot resolve \(host): \(systemResolutionError(status))")
        }
        defer { faults.freeAddresses(addresses) }
        let number = faults.socket(address.pointee.ai_family)
        guard number >= 0 else { throw .io("cannot listen on \(host):\(port): \(systemError())") }
        systemSetOption(number, SO_REUSEADDR)
        guard faults.bind(number, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
            !listening || faults.listen(number, backlog) == 0
        else {
            let reason = systemError()
            faults.close(number)
            throw .io("cannot listen on \(host):\(port): \(reason)")
        }
        guard listening else { return (SocketDescriptor(number, faults: faults), boundPort(of: number)) }
        guard let wake = faults.pipe() else {
            let reason = systemError()
            faults.close(number)
            throw .io("cannot listen on \(host):\(port): \(reason)")
        }
        systemSetNonBlocking(number, true)
        let descriptor = SocketDescriptor(number, faults: faults, wake: .init(read: wake.read, write: wake.write))
        return (descriptor, boundPort(of: number))
    }

    /// Waits for a connection on a listening socket (`bind`) and accepts it; the connection carries the listener's
    /// faults.
    ///
    /// Throws `.closed` once the listening socket is closed (its wake pipe ends the wait, on Linux and Darwin alike),
    /// and `.io` when the system cannot take a connection now (`EMFILE`, `ENFILE`: no descriptor left; `ENOBUFS`,
    /// `ENOMEM`) or the wait itself failed: the connections stay in the listen queue, to be accepted once there are
    /// descriptors again (`SocketListener.accept()` waits and tries again). A connection that was reset while it
    /// waited (`ECONNABORTED`), or that another thread took first (`EAGAIN`), and a call a signal interrupted
    /// (`EINTR`) are passed over. The connection is in blocking mode, whatever the listener's: Darwin's accepted
    /// sockets inherit the listener's `O_NONBLOCK`, Linux's do not.
    public static func accept(_ listener: SocketDescriptor) throws(SocketError) -> SocketDescriptor {
        try listener.use { number throws(SocketError) -> SocketDescriptor in
            while true {
                try wait(for: Int16(POLLIN), on: number, wake: listener.wake, until: nil, faults: listener.faults)
                let client = listener.faults.accept(number)
                if client >= 0 {
                    systemSetNonBlocking(client, false)
                    systemPreventSIGPIPE(client)
                    return SocketDescriptor(client, faults: listener.faults)
                }
                let code = errno
                if code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNABORTED { continue }
                guard !listener.isClosed, code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM else {
                    throw .closed
                }
                throw .io(systemError())
            }
        }
    }

    /// Writes all of `bytes`, or throws when the peer is gone.
    public static func send(_ bytes: [UInt8], to socket: SocketDescriptor) throws(SocketError) {
        try socket.use { number throws(SocketError) in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { raw in
                    socket.faults.send(number, raw.baseAddress! + offset, raw.count - offset)
                }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw .io(systemError()) }
                offset += written
            }
        }
    }

    /// Reads what is available, up to `maximum` bytes, waiting until `deadline` (a deadline already passed takes what
    /// has arrived without waiting); an empty result is never returned.
    ///
    /// Throws `.closed` at the end of the stream and `.reset` when the peer reset the connection, so that a test can
    /// tell a server that closed cleanly from one that reset a client still sending.
    public static func receive(from socket: SocketDescriptor, maximum: Int = 4096, deadline: ContinuousClock.Instant)
        throws(SocketError) -> [UInt8]
    {
        try socket.use { number throws(SocketError) in
            while true {
                try wait(for: Int16(POLLIN), on: number, wake: socket.wake, until: deadline, faults: socket.faults)
                var chunk = [UInt8](repeating: 0, count: maximum)
                let count = chunk.withUnsafeMutableBytes { socket.faults.read(number, $0.baseAddress!, $0.count) }
                if count > 0 { return Array(chunk[..<count]) }
                if count == 0 { throw .closed }
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == ECONNRESET { throw .reset }
                throw .io(systemError())
            }
        }
    }

    /// Closes `socket` gracefully, for a server that answered before it read all the peer sends (a lingering close):
    /// ends the sending side, so that the peer reads the answer and then the end of the stream; reads and discards
    /// what the peer still sends, until it closes, `maximum` bytes have come or `deadline` passes; then closes.
    ///
    /// Closing at once, with the peer's bytes unread or more of them on the way, resets the connection: a peer still
    /// sending sees its write fail and may never read the answer. The two bounds keep a peer that never stops
    /// sending, or never closes, from holding the connection; past them the socket is closed all the same.
    public static func closeLingering(
        _ socket: SocketDescriptor, discardingAtMost maximum: Int, until deadline: ContinuousClock.Instant
    ) {
        defer { socket.close() }
        do throws(SocketError) {
            try socket.use { number throws(SocketError) in
                guard socket.faults.shutdownSending(number) == 0 else { throw .io(systemError()) }
            }
            var discarded = 0
            while discarded < maximum {
                let chunk = try receive(from: socket, maximum: min(maximum - discarded, 65_536), deadline: deadline)
                discarded += chunk.count
            }
        } catch {
            // The peer closed or reset, the deadline passed, or the socket was closed meanwhile: nothing to wait for.
        }
    }

    /// Waits until `socket` has a connection to accept or bytes to read, or throws `.timedOut` at `deadline` (`.closed`
    /// once it is closed).
    public static func waitUntilReadable(_ socket: SocketDescriptor, until deadline: ContinuousClock.Instant)
        throws(SocketError)
    {
        try socket.use { number throws(SocketError) in
            try wait(for: Int16(POLLIN), on: number, wake: socket.wake, until: deadline, faults: socket.faults)
        }
    }

    // MARK: Details

    /// Waits until `number` is ready for `events`, or throws `.timedOut` at `deadline` (`nil`: no deadline), or
    /// `.closed` once a listener's `wake` pipe is readable (its socket is being closed).
    private static func wait(
        for events: Int16, on number: Int32, wake: SocketDescriptor.Wake?, until deadline: ContinuousClock.Instant?,
        faults: SystemCallFaults
    ) throws(SocketError) {
        while true {
            // A deadline already passed still looks once, without waiting: what has arrived is taken.
            let remaining = deadline.map { max(ContinuousClock.now.duration(to: $0), .zero) }
            let milliseconds = remaining.map { Int32(clamping: Int64(($0 / .milliseconds(1)).rounded(.up))) } ?? -1
            var pollers = [pollfd(fd: number, events: events, revents: 0)]
            if let wake { pollers.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)) }
            let ready = faults.poll(&pollers, milliseconds, as: wake == nil ? .poll : .pollListener)
            if ready > 0 {
                if pollers.count > 1 && pollers[1].revents != 0 { throw .closed }
                return
            }
            if ready < 0 && errno != EINTR { throw .io(systemError()) }
            if remaining == .zero { throw .timedOut }
        }
    }

    private static func connect(
        _ number: Int32, to address: Address, deadline: ContinuousClock.Instant, faults: SystemCallFaults
    ) throws(SocketError) {
        let flags = fcntl(number, F_GETFL, 0)
        _ = fcntl(number, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(number, F_SETFL, flags) }
        let started = withUnsafePointer(to: address.storage) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { faults.connect(number, $0, address.length) }
        }
        if started == 0 { return }
        guard errno == EINPROGRESS else { throw .unreachable(systemError()) }
        try wait(for: Int16(POLLOUT), on: number, wake: nil, until: deadline, faults: faults)
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(number, SOL_SOCKET, SO_ERROR, &pending, &length)
        guard pending == 0 else { throw .unreachable(systemErrorText(pending)) }
    }

    private static func boundPort(of number: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic -> UInt16 in
                getsockname(number, generic, &length)
                if generic.pointee.sa_family == sa_family_t(AF_INET6) {
                    return generic.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        UInt16(bigEndian: $0.pointee.sin6_port)
                    }
                }
                return generic.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin_port)
                }
            }
        }
    }
}
