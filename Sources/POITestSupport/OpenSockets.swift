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
    /// How many of this process's descriptors are sockets with `port` as their local port (a listener on it, the
    /// connections it accepted) or their peer's (clients of it); `nil` where the system does not list descriptors.
    public static func count(port: UInt16) -> Int? {
        sockets().map { sockets in sockets.filter { $0.local == port || $0.peer == port }.count }
    }

    /// How many of this process's descriptors are connections to `port` made from this process: the client ends, whose
    /// peer's port is `port`; `nil` where the system does not list descriptors.
    ///
    /// A client that leaked its connection is counted even while the server's side is still closing (a server's
    /// `stop()` may close its descriptors once its threads let go of them), which `count(port:)` would count too.
    public static func count(connectedTo port: UInt16) -> Int? {
        sockets().map { sockets in sockets.filter { $0.peer == port && $0.local != port }.count }
    }

    /// The local and peer ports of each of this process's IP sockets, or `nil` where the system does not list
    /// descriptors.
    private static func sockets() -> [(local: UInt16?, peer: UInt16?)]? {
        #if os(Linux)
            let folder = "/proc/self/fd"
        #else
            let folder = "/dev/fd"
        #endif
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return names.compactMap(Int32.init).compactMap(ports(of:))
    }

    /// The local and peer ports of `descriptor` when it is an IP socket (`nil` when it is not, or is closed
    /// meanwhile; a peer port of `nil` when it is not connected).
    static func ports(of descriptor: Int32) -> (local: UInt16?, peer: UInt16?)? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK else { return nil }
        let local = port(of: descriptor, getsockname)
        guard local != nil else { return nil }
        return (local, port(of: descriptor, getpeername))
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
