import Foundation
import POISockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's open TCP sockets on one port: what a test counts after a failure path, so that a path that leaks a
/// descriptor fails the test.
///
/// The process's every descriptor would count the other tests' too, which run at the same time; a port is one test's
/// own (its server bound port 0). Each open descriptor, as `/dev/fd` lists them (on Linux a link to `/proc/self/fd`),
/// that is a socket is asked its own address and its peer's (`getsockname`, `getpeername`), so nothing is parsed from
/// the system's tables of every socket of the machine. The same on Linux and Darwin.
public enum OpenSockets {
    /// One open socket of this process: which socket it is, and its local port and its peer's (`nil` when it is not
    /// connected).
    ///
    /// A socket is known by its descriptor and its two addresses (host and port), not by `fstat`'s device and inode,
    /// which Darwin does not give a socket. At any moment no two open sockets share all three; a socket closed and
    /// another opened since are told apart unless the new one has the old one's number and both its addresses (a
    /// listener that another test bound on the freed port and was given the same number, say), which a test
    /// avoids by asking of its own sockets while it holds its port.
    public struct Entry: Hashable, Sendable {
        /// Its descriptor.
        public let descriptor: Int32
        /// Its local address, host and port (`127.0.0.1:49152`, `[::1]:49152`).
        public let localAddress: String
        /// Its peer's address, host and port; `nil` when it is not connected.
        public let peerAddress: String?
        /// Its local port.
        public let local: UInt16
        /// Its peer's port; `nil` when it is not connected.
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

    /// Which of `sockets` this process still has open: the same sockets (`Entry`), whatever opened on their ports
    /// since (a port a stopped server freed can be bound at once by a test running beside); `nil` where the system
    /// does not list descriptors.
    public static func stillOpen(_ sockets: [Entry]) -> [Entry]? {
        all().map { open in
            let identities = Set(open)
            return sockets.filter { identities.contains($0) }
        }
    }

    /// Each of this process's IP sockets, or `nil` where the system does not list descriptors.
    private static func all() -> [Entry]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd") else { return nil }
        return names.compactMap(Int32.init).compactMap(entry(of:))
    }

    /// `descriptor` as an entry when it is an IP socket; `nil` when it is not, or is closed meanwhile.
    private static func entry(of descriptor: Int32) -> Entry? {
        // Through the system profile, so that under Darwin's (POI_SYSTEM=darwin) the socket has no device or inode.
        guard let status = SystemProfile.current.fileStatus(of: descriptor), status.isSocket,
            let local = address(of: descriptor, getsockname)
        else { return nil }
        let peer = address(of: descriptor, getpeername)
        return Entry(
            descriptor: descriptor, localAddress: local.text, peerAddress: peer?.text, local: local.port,
            peer: peer?.port)
    }

    /// The IP address `query` gives of `descriptor` (its own or its peer's), as text and port.
    private static func address(
        of descriptor: Int32, _ query: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> (text: String, port: UInt16)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> (String, UInt16)? in
                guard query(descriptor, address, &length) == 0 else { return nil }
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                        let port = UInt16(bigEndian: inet.pointee.sin_port)
                        return ("\(host(AF_INET, &inet.pointee.sin_addr)):\(port)", port)
                    }
                case AF_INET6:
                    return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                        let port = UInt16(bigEndian: inet6.pointee.sin6_port)
                        return ("[\(host(AF_INET6, &inet6.pointee.sin6_addr))]:\(port)", port)
                    }
                default:
                    return nil
                }
            }
        }
    }

    /// The numeric host of an address of `family`, as `inet_ntop` writes it.
    private static func host(_ family: Int32, _ address: UnsafeRawPointer) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, address, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
