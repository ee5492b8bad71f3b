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
