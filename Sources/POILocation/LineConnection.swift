#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP client connection that reads newline-terminated lines, with a deadline on every wait.
///
/// Plain POSIX sockets: the package has no dependencies, and gpsd's protocol is lines of JSON over TCP.
final class LineConnection {
    /// Why the connection failed, in the system's words.
    enum Failure: Error {
        case unreachable(String)
        case closed
        case timedOut
        case io(String)
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host`:`port` (a name or a numeric address), giving up at `deadline`.
    init(host: String, port: UInt16, deadline: ContinuousClock.Instant) throws(Failure) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Self.streamSocketType
        var addresses: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &addresses)
        guard status == 0, let first = addresses else {
            throw .unreachable(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(addresses) }

        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let socketDescriptor = socket(address.pointee.ai_family, Self.streamSocketType, 0)
            guard socketDescriptor >= 0 else {
                lastError = Self.systemError()
                continue
            }
            do throws(Failure) {
                try Self.connect(socketDescriptor, to: address.pointee, deadline: deadline)
                descriptor = socketDescriptor
                return
            } catch {
                if case .unreachable(let reason) = error { lastError = reason } else { lastError = "timed out" }
            }
            close(socketDescriptor)
        }
        throw .unreachable(lastError)
    }

    /// Connects without blocking past `deadline`, then puts the socket back in blocking mode.
    private static func connect(_ descriptor: Int32, to address: addrinfo, deadline: ContinuousClock.Instant)
        throws(Failure)
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

    deinit {
        close(descriptor)
    }

    /// Sends all of `text`.
    func send(_ text: String) throws(Failure) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw in
                write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            guard written > 0 else { throw .io(Self.systemError()) }
            offset += written
        }
        bytes.removeAll()
    }

    /// The next line without its newline; throws `.closed` at the end of the stream, `.timedOut` at `deadline`.
    func readLine(deadline: ContinuousClock.Instant) throws(Failure) -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            try Self.wait(for: Int16(POLLIN), on: descriptor, until: deadline)
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count == 0 { throw .closed }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw .io(Self.systemError())
            }
            buffer.append(contentsOf: chunk[..<count])
            guard buffer.count <= 1 << 20 else { throw .io("a line longer than 1 MiB") }
        }
    }

    /// Waits until `descriptor` is ready for `events`, or throws `.timedOut` at `deadline`.
    private static func wait(for events: Int16, on descriptor: Int32, until deadline: ContinuousClock.Instant)
        throws(Failure)
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

    private static func systemError() -> String {
        String(cString: strerror(errno)).lowercased()
    }

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

    #if canImport(Glibc)
        private static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    #else
        private static let streamSocketType = SOCK_STREAM
    #endif
}
