import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's open TCP sockets on one port: what a test counts after a failure path, so that a path that leaks a
/// descriptor fails the test.
///
/// The process's every descriptor would count the other tests' too, which run at the same time; a port is one test's
/// own (its server bound port 0). Each open descriptor (listed in `/proc/self/fd` on Linux, `/dev/fd` on macOS) that
/// is a socket is asked its own address and its peer's (`getsockname`, `getpeername`), so nothing is parsed from the
/// system's tables of every socket of the machine.
public enum OpenSockets {
    /// One open socket of this process: which socket it is (its device and inode, so that a socket closed and another
    /// opened on the same port since are two), its local port, and its peer's (`nil` when it is not connected).
    public struct Entry: Hashable, Sendable {
        public let device: UInt64
        public let inode: UInt64
        public let local: UInt16
        public let peer: UInt16?
    }

    /// How many of this process's descriptors are sockets with `port` as their local port (a listener on it, the
    /// connections it accepted) or their peer's (clients of it); `nil` where the system does not list descriptors.
    ///
    /// Count while the port is held: once its server has stopped, a test running beside may bind the freed port, or
    /// be given it as a client's own, and its sockets count too. After a stop, take `sockets(port:)` before it and
    /// ask `stillOpen(_:)` after.
    public static func count(port: UInt16) -> Int? {
        sockets(port: port)?.count
    }

    /// How many of this process's descriptors are connections to `port` made from this process: the client ends, whose
    /// peer's port is `port`; `nil` where the system does not list descriptors.
    ///
    /// A client that leaked its connection is counted even while the server's side is still closing (a server's
    /// `stop()` may close its descriptors once its threads let go of them), which `count(port:)` would count too.
    public static func count(connectedTo port: UInt16) -> Int? {
        all().map { sockets in sockets.filter { $0.peer == port && $0.local != port }.count }
    }

    /// This process's sockets with `port` as their local port or their peer's, as `count(port:)` counts them; `nil`
    /// where the system does not list descriptors.
    public static func sockets(port: UInt16) -> [Entry]? {
        all().map { sockets in sockets.filter { $0.local == port || $0.peer == port } }
    }

    /// Which of `sockets` this process still has open: the same sockets, by device and inode, whatever opened on their
    /// ports since (a port a stopped server freed can be bound at once by a test running beside); `nil` where the
    /// system does not list descriptors.
    public static func stillOpen(_ sockets: [Entry]) -> [Entry]? {
        all().map { open in
            let identities = Set(open.map { [$0.device, $0.inode] })
            return sockets.filter { identities.contains([$0.device, $0.inode]) }
        }
    }

    /// Each of this process's IP sockets, or `nil` where the system does not list descriptors.
    private static func all() -> [Entry]? {
        #if os(Linux)
            let folder = "/proc/self/fd"
        #else
            let folder = "/dev/fd"
        #endif
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return names.compactMap(Int32.init).compactMap(entry(of:))
    }

    /// `descriptor` as an entry when it is an IP socket; `nil` when it is not, or is closed meanwhile.
    private static func entry(of descriptor: Int32) -> Entry? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK,
            let local = port(of: descriptor, getsockname)
        else { return nil }
        return Entry(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), local: local,
            peer: port(of: descriptor, getpeername))
    }

    private static func port(
        of descriptor: Int32, _ query: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> UInt16? in
                guard query(descriptor, address, &length) == 0 else { return nil }
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        UInt16(bigEndian: $0.pointee.sin_port)
                    }
                case AF_INET6:
                    return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        UInt16(bigEndian: $0.pointee.sin6_port)
                    }
                default:
                    return nil
                }
            }
        }
    }
}
