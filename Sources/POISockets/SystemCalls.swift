// The C library's socket calls under names of their own, in one place: `Socket`'s methods share the C names, and
// this file is the only one that chooses a C library. Where Darwin and Linux differ, the call behaves as the running
// system does, or, under `POI_SYSTEM=darwin` on Linux, as Darwin documents it (`SystemProfile`, `DarwinEmulation`).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `SOCK_STREAM` as a number, on either C library: Glibc imports it as a case of an enumeration, Darwin as a number,
/// and the overload that fits is chosen where the code is compiled (no branch on the platform).
let systemStreamSocketType = socketTypeNumber(SOCK_STREAM)

/// A socket type that the C library imports as a number (Darwin's).
func socketTypeNumber<Number: BinaryInteger>(_ type: Number) -> Int32 { Int32(type) }
/// A socket type that the C library imports as a case of an enumeration (Glibc's `__socket_type`).
func socketTypeNumber<Type: RawRepresentable>(_ type: Type) -> Int32 where Type.RawValue: BinaryInteger {
    Int32(type.rawValue)
}

/// A stream socket of `family`, kept from the programs this process starts from its first moment.
///
/// Linux makes it so as it creates it (`SOCK_CLOEXEC`), leaving no moment in which a program started by another thread
/// could inherit it. Darwin has no such flag: `fcntl` sets `FD_CLOEXEC` right after, as it does here under Darwin's
/// profile (`profile`, the process's unless a test names one).
func systemSocket(_ family: Int32, profile: SystemProfile = .current) -> Int32 {
    #if os(Linux)
        if !profile.emulatesDarwin {
            return socket(family, systemStreamSocketType | socketTypeNumber(SOCK_CLOEXEC), 0)
        }
    #endif
    let number = socket(family, systemStreamSocketType, 0)
    if number >= 0 { systemCloseOnExec(number) }
    return number
}
func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
func systemBind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    bind(descriptor, address, length)
}
func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
/// Accepts a client of the listening `descriptor`, as `profile` has it (the process's, unless a test names one): under
/// Darwin's, the client inherits the listener's `O_NONBLOCK`.
///
/// The client is kept from the programs this process starts, as `systemSocket`'s sockets are: at once on Linux
/// (`accept4` with `SOCK_CLOEXEC`), by `fcntl` right after on Darwin and under its profile.
func systemAccept(_ descriptor: Int32, profile: SystemProfile = .current) -> Int32 {
    #if os(Linux)
        if !profile.emulatesDarwin, let accept4 = LinuxCalls.accept4 {
            return accept4(descriptor, nil, nil, socketTypeNumber(SOCK_CLOEXEC))
        }
    #endif
    let client = accept(descriptor, nil, nil)
    if client >= 0 { systemCloseOnExec(client) }
    if client >= 0, profile.emulatesDarwin { DarwinEmulation.accepted(client, from: descriptor) }
    return client
}
/// Sends on a connected socket, as `profile` has it (the process's, unless a test names one): under Darwin's, a send
/// after the connection was reset fails with `EPIPE` (`DarwinEmulation.sendFailure`).
func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, profile: SystemProfile = .current)
    -> Int
{
    let sent = send(descriptor, bytes, count, systemSendFlags(descriptor, profile: profile))
    guard sent < 0 else { return sent }
    // The error taken at once and set last: any call between (the profile's own) may change errno.
    let code = errno
    let failure = profile.emulatesDarwin ? DarwinEmulation.sendFailure(code, on: descriptor) : code
    errno = failure
    return sent
}
/// Reads from a descriptor, as `profile` has it: under Darwin's, a socket whose stream ended and was then reset says
/// the reset (`ECONNRESET`) where Linux says the end of the stream (`DarwinEmulation.endedRead`).
func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int, profile: SystemProfile = .current)
    -> Int
{
    let count = read(descriptor, bytes, count)
    // A failed read returns at once, its errno untouched by any other call.
    guard count == 0, profile.emulatesDarwin, let reset = DarwinEmulation.endedRead(descriptor) else { return count }
    errno = reset
    return -1
}
func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
/// Ends both directions of a socket, which wakes every thread blocked on a connected one, on either system.
///
/// Of a listening socket, Linux disconnects it and wakes `accept`; Darwin refuses (`ENOTCONN`) and wakes nothing, so a
/// listener is woken by its wake pipe instead (`SocketDescriptor.close()`). `profile` is the process's, unless a test
/// names one.
func systemShutdown(_ descriptor: Int32, profile: SystemProfile = .current) -> Int32 {
    if profile.emulatesDarwin, let refused = DarwinEmulation.shutdown(descriptor) { return refused }
    return shutdown(descriptor, Int32(SHUT_RDWR))
}
/// Ends the sending side only: the first step of a lingering close (`Socket.closeLingering`).
///
/// The peer reads what was sent and then the end of the stream, while this side can still read what the peer sends.
func systemShutdownSending(_ descriptor: Int32) -> Int32 { shutdown(descriptor, Int32(SHUT_WR)) }
func systemClose(_ descriptor: Int32) -> Int32 {
    if SystemProfile.current.emulatesDarwin { DarwinEmulation.closing(descriptor) }
    return close(descriptor)
}
func systemSetOption(_ descriptor: Int32, _ name: Int32) {
    var on: Int32 = 1
    _ = setsockopt(descriptor, SOL_SOCKET, name, &on, socklen_t(MemoryLayout<Int32>.size))
}
/// Puts `descriptor` in blocking (`false`) or non-blocking mode, by `fcntl` as POSIX has it on both systems (Darwin's
/// non-blocking `ioctl` request is a function-like macro, which Swift does not import).
func systemSetNonBlocking(_ descriptor: Int32, _ nonBlocking: Bool) {
    let flags = fcntl(descriptor, F_GETFL, 0)
    guard flags >= 0 else { return }
    _ = fcntl(descriptor, F_SETFL, nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
}
/// Whether `descriptor` is in non-blocking mode.
func systemIsNonBlocking(_ descriptor: Int32) -> Bool {
    fcntl(descriptor, F_GETFL, 0) & O_NONBLOCK != 0
}
/// Keeps `descriptor` from the programs this process starts (`FD_CLOEXEC`).
func systemCloseOnExec(_ descriptor: Int32) {
    let flags = fcntl(descriptor, F_GETFD, 0)
    if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
}
/// A pipe, both ends non-blocking and kept from started programs: a listener's wake (`SocketDescriptor.Wake`).
///
/// Both at once on Linux (`pipe2`); on Darwin, which has no `pipe2`, and under its profile, by `fcntl` right after.
func systemPipe(profile: SystemProfile = .current) -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    #if os(Linux)
        if !profile.emulatesDarwin, let pipe2 = LinuxCalls.pipe2 {
            guard pipe2(&ends, O_CLOEXEC | O_NONBLOCK) == 0 else { return nil }
            return (ends[0], ends[1])
        }
    #endif
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
        systemSetNonBlocking(end, true)
        systemCloseOnExec(end)
    }
    return (ends[0], ends[1])
}
/// Waits until one of `pollers` is ready, or `milliseconds` pass (-1: no limit), as `profile` has it (the process's,
/// unless a test names one): under Darwin's, a descriptor asked for no event is watched for nothing, and the end of a
/// stream is reported as `POLLHUP` (`DarwinEmulation.poll`).
func systemPoll(_ pollers: inout [pollfd], _ milliseconds: Int32, profile: SystemProfile = .current) -> Int32 {
    if profile.emulatesDarwin { return DarwinEmulation.poll(&pollers, milliseconds) }
    return poll(&pollers, nfds_t(pollers.count), milliseconds)
}
/// The last system error as lower-case words, for example "connection refused".
func systemError() -> String { systemErrorText(errno) }
/// The system's words for the error `code`, in lower case, as `profile` has them: under Darwin's, Darwin's C library's
/// where its words differ from this one's (`DarwinEmulation.errorText`).
func systemErrorText(_ code: Int32, profile: SystemProfile = .current) -> String {
    if profile.emulatesDarwin, let text = DarwinEmulation.errorText(code) { return text.lowercased() }
    return String(cString: strerror(code)).lowercased()
}
/// The resolver's words for its failure `status` (`getaddrinfo`'s), in lower case, as `profile` has them: under
/// Darwin's, Darwin's resolver's where its words differ (`DarwinEmulation.resolutionErrorText`).
func systemResolutionError(_ status: Int32, profile: SystemProfile = .current) -> String {
    if profile.emulatesDarwin, let text = DarwinEmulation.resolutionErrorText(status) { return text.lowercased() }
    return String(cString: gai_strerror(status)).lowercased()
}

#if os(Linux)
    /// Linux's calls that open a descriptor already close-on-exec, which Glibc declares only for `_GNU_SOURCE` and
    /// Swift's Glibc module therefore does not import: found by name in the C library (`nil` where it has none).
    enum LinuxCalls {
        typealias Accept4 =
            @convention(c) (
                Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
            ) -> Int32
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

        /// `accept4(2)`.
        static let accept4: Accept4? = function("accept4")
        /// `pipe2(2)`.
        static let pipe2: Pipe2? = function("pipe2")

        private static func function<Function>(_ name: String) -> Function? {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
            return unsafeBitCast(symbol, to: Function.self)
        }
    }
#endif

// MARK: SIGPIPE

#if canImport(Darwin)
    /// Darwin has no `MSG_NOSIGNAL` for `send`: every socket gets `SO_NOSIGPIPE` instead (`systemPreventSIGPIPE`).
    func systemSendFlags(_ descriptor: Int32, profile: SystemProfile = .current) -> Int32 { 0 }
    /// Makes a write to a peer that hung up fail with `EPIPE` instead of raising SIGPIPE.
    func systemPreventSIGPIPE(_ descriptor: Int32) {
        systemSetOption(descriptor, SO_NOSIGPIPE)
    }
#else
    /// Linux: a write with `MSG_NOSIGNAL` to a peer that hung up fails with `EPIPE` instead of raising SIGPIPE; under
    /// Darwin's profile, only a socket that was given Darwin's `SO_NOSIGPIPE` is written so.
    func systemSendFlags(_ descriptor: Int32, profile: SystemProfile = .current) -> Int32 {
        guard profile.emulatesDarwin else { return Int32(MSG_NOSIGNAL) }
        return DarwinEmulation.hasNoSIGPIPE(descriptor) ? Int32(MSG_NOSIGNAL) : 0
    }
    /// Makes a write to a peer that hung up fail with `EPIPE` instead of raising SIGPIPE: every send has
    /// `MSG_NOSIGNAL` on Linux; under Darwin's profile the socket is given the emulated `SO_NOSIGPIPE`.
    func systemPreventSIGPIPE(_ descriptor: Int32) {
        if SystemProfile.current.emulatesDarwin { DarwinEmulation.setNoSIGPIPE(descriptor) }
    }
#endif

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
        let status = getaddrinfo(host, service, hints, result)
        if status == 0 { took(.resolved) }
        return status
    }

    func socket(_ family: Int32) -> Int32 {
        if let action = action(for: .socket), let failed = failing(action) { return failed }
        return opened(systemSocket(family))
    }

    /// `descriptor`, told to the test when it is one.
    private func opened(_ descriptor: Int32) -> Int32 {
        if descriptor >= 0 { took(.opened(descriptor)) }
        return descriptor
    }

    func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        switch action(for: .connect) {
        case .fail(let code)?:
            errno = code
            return -1
        case .completeAtOnce?:
            // What a non-blocking connect may do: complete before it returns (Linux's UNIX-domain sockets do; its
            // loopback TCP reports "in progress"). The real call is made on the socket switched to blocking, which
            // returns once the handshake is over, and then the socket's own mode is put back: what the caller's path
            // finds is what a real completion leaves, a connected socket still non-blocking, so a caller that does not
            // restore its mode on this path is caught here too.
            let wasNonBlocking = systemIsNonBlocking(descriptor)
            systemSetNonBlocking(descriptor, false)
            let status = systemConnect(descriptor, address, length)
            let error = errno
            systemSetNonBlocking(descriptor, wasNonBlocking)
            errno = error
            return status
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

    func pipe() -> (read: Int32, write: Int32)? {
        if let action = action(for: .pipe), failing(action) != nil { return nil }
        guard let ends = systemPipe() else { return nil }
        return (opened(ends.read), opened(ends.write))
    }

    func accept(_ descriptor: Int32) -> Int32 {
        let action = action(for: .accept)
        if let action, let failed = failing(action) { return failed }
        return opened(systemAccept(descriptor, profile: action == .asOnDarwin ? .darwin : .current))
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
        took(.freed)
    }

    /// Closes a descriptor of the package's (a socket, a wake pipe's end); the call is only counted
    /// (`SystemCallFaults.Call.close`).
    func close(_ descriptor: Int32) {
        _ = action(for: .close)
        _ = systemClose(descriptor)
        took(.closed(descriptor))
    }

    /// Waits on `pollers`: a connection's socket (`call` `.poll`), or a listening socket and its wake pipe
    /// (`.pollListener`).
    func poll(_ pollers: inout [pollfd], _ milliseconds: Int32, as call: Call) -> Int32 {
        if let action = action(for: call), let failed = failing(action) { return failed }
        return systemPoll(&pollers, milliseconds)
    }
}
