// The C library's socket calls under names of their own, in one place: `Socket`'s methods share the C names, and
// this file is the only one that chooses a C library.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Darwin)
    let systemStreamSocketType = SOCK_STREAM
    /// Darwin has no MSG_NOSIGNAL: every socket gets SO_NOSIGPIPE instead (`systemPreventSIGPIPE`).
    let systemSendFlags: Int32 = 0
#else
    let systemStreamSocketType = Int32(SOCK_STREAM.rawValue)
    /// Linux: a write to a peer that hung up fails with EPIPE instead of raising SIGPIPE.
    let systemSendFlags = Int32(MSG_NOSIGNAL)
#endif

func systemSocket(_ family: Int32) -> Int32 { socket(family, systemStreamSocketType, 0) }
func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
func systemBind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    bind(descriptor, address, length)
}
func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
func systemAccept(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }
func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    send(descriptor, bytes, count, systemSendFlags)
}
func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
func systemShutdown(_ descriptor: Int32) -> Int32 { shutdown(descriptor, Int32(SHUT_RDWR)) }
/// Ends the sending side only: the first step of a lingering close (`Socket.closeLingering`).
///
/// The peer reads what was sent and then the end of the stream, while this side can still read what the peer sends.
func systemShutdownSending(_ descriptor: Int32) -> Int32 { shutdown(descriptor, Int32(SHUT_WR)) }
func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
func systemSetOption(_ descriptor: Int32, _ name: Int32) {
    var on: Int32 = 1
    _ = setsockopt(descriptor, SOL_SOCKET, name, &on, socklen_t(MemoryLayout<Int32>.size))
}
func systemPreventSIGPIPE(_ descriptor: Int32) {
    #if canImport(Darwin)
        systemSetOption(descriptor, SO_NOSIGPIPE)
    #endif
}
/// The last system error as lower-case words, for example "connection refused".
func systemError() -> String { String(cString: strerror(errno)).lowercased() }

// MARK: The calls through a socket's faults (`SystemCallFaults`): the C library's, unless a test's fault says otherwise

extension SystemCallFaults {
    /// A failure as the C library reports one: -1, with the error number in `errno`.
    private func failing(_ action: Action) -> Int32? {
        guard case .fail(let code) = action else { return nil }
        errno = code
        return -1
    }

    /// `count`, or fewer bytes when a fault makes the call short.
    private func limited(_ count: Int, by action: Action?) -> Int {
        guard case .atMost(let most) = action else { return count }
        return min(count, max(1, most))
    }

    func resolve(
        _ host: String, _ service: String, _ hints: UnsafePointer<addrinfo>,
        _ result: UnsafeMutablePointer<UnsafeMutablePointer<addrinfo>?>
    ) -> Int32 {
        if case .fail(let code) = action(for: .resolve) { return code }
        return getaddrinfo(host, service, hints, result)
    }

    func socket(_ family: Int32) -> Int32 {
        if let action = action(for: .socket), let failed = failing(action) { return failed }
        return systemSocket(family)
    }

    func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        switch action(for: .connect) {
        case .fail(let code)?:
            errno = code
            return -1
        case .completeAtOnce?:
            // What a connect on loopback may do: complete before it returns. The real call is still made, so that the
            // socket is connected, but on a blocking socket, which returns once the handshake is over: "in progress"
            // is what the fault takes away. `Socket.connect` puts the socket's own mode back after the call.
            var nonBlocking: Int32 = 0
            _ = ioctl(descriptor, UInt(FIONBIO), &nonBlocking)
            return systemConnect(descriptor, address, length)
        default:
            return systemConnect(descriptor, address, length)
        }
    }

    func bind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        if let action = action(for: .bind), let failed = failing(action) { return failed }
        return systemBind(descriptor, address, length)
    }

    func listen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
        if let action = action(for: .listen), let failed = failing(action) { return failed }
        return systemListen(descriptor, backlog)
    }

    func accept(_ descriptor: Int32) -> Int32 {
        if let action = action(for: .accept), let failed = failing(action) { return failed }
        return systemAccept(descriptor)
    }

    func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        let action = action(for: .send)
        if let action, let failed = failing(action) { return Int(failed) }
        return systemSend(descriptor, bytes, limited(count, by: action))
    }

    func read(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
        let action = action(for: .receive)
        if let action, let failed = failing(action) { return Int(failed) }
        return systemRead(descriptor, bytes, limited(count, by: action))
    }

    func shutdownSending(_ descriptor: Int32) -> Int32 {
        if let action = action(for: .shutdown), let failed = failing(action) { return failed }
        return systemShutdownSending(descriptor)
    }

    /// Gives back an address list `resolve` returned; the call is only counted (`SystemCallFaults.Call.freeAddresses`).
    func freeAddresses(_ addresses: UnsafeMutablePointer<addrinfo>?) {
        _ = action(for: .freeAddresses)
        freeaddrinfo(addresses)
    }

    func poll(_ poller: inout pollfd, _ milliseconds: Int32) -> Int32 {
        if let action = action(for: .poll), let failed = failing(action) { return failed }
        return systemPoll(&poller, milliseconds)
    }
}

func systemPoll(_ poller: inout pollfd, _ milliseconds: Int32) -> Int32 { poll(&poller, 1, milliseconds) }
