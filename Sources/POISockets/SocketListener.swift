import Synchronization

/// A listening socket and the connections it accepted: the stop routine of every server in the package.
///
/// The stub server, the fake gpsd and the test GPS receiver each accept on one of these, and each stops by calling
/// `stop()`, which closes the listening socket and every accepted connection still open, waking the threads
/// blocked on them (see `SocketDescriptor`).
public final class SocketListener: Sendable {
    /// The port it listens on.
    public let port: UInt16

    private let descriptor: SocketDescriptor
    private let connections = Mutex<(stopped: Bool, open: [SocketDescriptor])>((false, []))

    /// Listens on `host`:`port`; port 0 lets the system choose a free one, which `port` then tells.
    public init(host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 128) throws(SocketError) {
        (descriptor, self.port) = try Socket.bind(host: host, port: port, backlog: backlog)
    }

    /// The next connection, or `nil` once the listener is stopped.
    public func accept() -> SocketDescriptor? {
        guard let connection = Socket.accept(descriptor) else { return nil }
        let accepted = connections.withLock { connections in
            guard !connections.stopped else { return false }
            connections.open.removeAll { $0.isClosed }
            connections.open.append(connection)
            return true
        }
        guard accepted else {
            connection.close()
            return nil
        }
        return connection
    }

    /// Waits until a connection is there to accept, or throws `.timedOut` at `deadline` (`.closed` once stopped).
    public func waitForConnection(until deadline: ContinuousClock.Instant) throws(SocketError) {
        try Socket.waitUntilReadable(descriptor, until: deadline)
    }

    /// Stops listening and closes every connection it accepted that is still open.
    ///
    /// Safe to call more than once.
    public func stop() {
        let open = connections.withLock { connections in
            connections.stopped = true
            defer { connections.open = [] }
            return connections.open
        }
        descriptor.close()
        for connection in open { connection.close() }
    }
}
