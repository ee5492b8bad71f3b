#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX socket operations the package needs, shared by the gpsd client, the stub server and the fake gpsd.
///
/// The package has no dependencies, so it speaks TCP through the C library. Writes never raise SIGPIPE: a peer
/// that hung up makes a write fail with an error instead of killing the process.
public enum Socket {
    /// Connects to `host`:`port` (a name or a numeric address), giving up at `deadline`; returns the descriptor.
    public static func connect(host: String, port: UInt16, deadline: ContinuousClock.Instant) throws(SocketError)
        -> Int32
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocketType
        var addresses: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &addresses)
        guard status == 0, let first = addresses else {
            throw .unreachable(String(cString: gai_strerror(status)).lowercased())
        }
        defer { freeaddrinfo(addresses) }
        var lastError = SocketError.unreachable("no address")
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, streamSocketType, 0)
            guard descriptor >= 0 else {
                lastError = .unreachable(systemError())
                continue
            }
            do throws(SocketError) {
                try connect(descriptor, to: address.pointee, deadline: deadline)
                preventSIGPIPE(descriptor)
                return descriptor
            } catch {
                lastError = error
                close(descriptor)
            }
        }
        throw lastError
    }

    /// Opens a listening socket on `host`:`port` (port 0 lets the system choose); returns it and its port.
    public static func listen(host: String, port: UInt16, backlog: Int32 = 128) throws(SocketError)
        -> (descriptor: Int32, port: UInt16)
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocketType
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var addresses: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &addresses)
        guard status == 0, let address = addresses else {
            throw .unreachable("cannot resolve \(host): \(String(cString: gai_strerror(status)).lowercased())")
        }
        defer { freeaddrinfo(addresses) }
        let descriptor = socket(address.pointee.ai_family, streamSocketType, 0)
        guard descriptor >= 0 else { throw .io(systemError()) }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
            systemListen(descriptor, backlog) == 0
        else {
            let reason = systemError()
            close(descriptor)
            throw .io("cannot listen on \(host):\(port): \(reason)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let boundPort = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic -> UInt16 in
                getsockname(descriptor, generic, &length)
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
        return (descriptor, boundPort)
    }

    /// Accepts a connection; `nil` once the listening socket is shut down or closed.
    public static func accept(_ listener: Int32) -> Int32? {
        while true {
            let client = systemAccept(listener)
            if client >= 0 {
                preventSIGPIPE(client)
                return client
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    /// Writes all of `bytes`, or throws when the peer is gone.
    public static func send(_ bytes: [UInt8], to descriptor: Int32) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                systemSend(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .io(systemError()) }
            offset += written
        }
    }

    /// Reads what is available, up to `maximum` bytes, waiting until `deadline`; an empty result is never returned.
    public static func receive(from descriptor: Int32, maximum: Int = 4096, deadline: ContinuousClock.Instant)
        throws(SocketError) -> [UInt8]
    {
        while true {
            try wait(for: Int16(POLLIN), on: descriptor, until: deadline)
            var chunk = [UInt8](repeating: 0, count: maximum)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count > 0 { return Array(chunk[..<count]) }
            if count == 0 { throw .closed }
            if errno == EINTR || errno == EAGAIN { continue }
            if errno == ECONNRESET { throw .closed }
            throw .io(systemError())
        }
    }

    /// Shuts both directions of `descriptor` down, waking any thread blocked on it; the owner still closes it.
    public static func shutdown(_ descriptor: Int32) {
        _ = systemShutdown(descriptor)
    }

    /// Closes `descriptor`.
    public static func close(_ descriptor: Int32) {
        _ = systemClose(descriptor)
    }

    /// Waits until `descriptor` is ready for `events`, or throws `.timedOut` at `deadline`.
    public static func wait(for events: Int16, on descriptor: Int32, until deadline: ContinuousClock.Instant)
        throws(SocketError)
    {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw .timedOut }
            let milliseconds = Int32(clamping: Int64((remaining / .milliseconds(1)).rounded(.up)))
            var poller = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .io(systemError()) }
        }
    }

    // MARK: Details

    private static func connect(_ descriptor: Int32, to address: addrinfo, deadline: ContinuousClock.Instant)
        throws(SocketError)
    {
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        if systemConnect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return }
        guard errno == EINPROGRESS else { throw .unreachable(systemError()) }
        try wait(for: Int16(POLLOUT), on: descriptor, until: deadline)
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length)
        guard pending == 0 else { throw .unreachable(String(cString: strerror(pending)).lowercased()) }
    }

    /// The last system error as lower-case words, for example "connection refused".
    public static func systemError() -> String {
        String(cString: strerror(errno)).lowercased()
    }

    #if canImport(Glibc)
        private static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    #else
        private static let streamSocketType = SOCK_STREAM
    #endif

    #if canImport(Darwin)
        private static func preventSIGPIPE(_ descriptor: Int32) {
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }

        private static func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            Darwin.send(descriptor, bytes, count, 0)
        }
    #else
        private static func preventSIGPIPE(_ descriptor: Int32) {}

        private static func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            #if canImport(Glibc)
                Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
            #else
                Musl.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
            #endif
        }
    #endif

    private static func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t)
        -> Int32
    {
        #if canImport(Glibc)
            Glibc.connect(descriptor, address, length)
        #elseif canImport(Musl)
            Musl.connect(descriptor, address, length)
        #else
            Darwin.connect(descriptor, address, length)
        #endif
    }

    private static func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.listen(descriptor, backlog)
        #elseif canImport(Musl)
            Musl.listen(descriptor, backlog)
        #else
            Darwin.listen(descriptor, backlog)
        #endif
    }

    private static func systemAccept(_ listener: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.accept(listener, nil, nil)
        #elseif canImport(Musl)
            Musl.accept(listener, nil, nil)
        #else
            Darwin.accept(listener, nil, nil)
        #endif
    }

    private static func systemShutdown(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        #elseif canImport(Musl)
            Musl.shutdown(descriptor, Int32(SHUT_RDWR))
        #else
            Darwin.shutdown(descriptor, SHUT_RDWR)
        #endif
    }

    private static func systemClose(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #elseif canImport(Musl)
            Musl.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }
}
