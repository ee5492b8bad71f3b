import Dispatch
import POILock

/// A listening socket and the connections it accepted: the stop routine of every server in the package.
///
/// The stub server, the fake gpsd and the test GPS receiver each accept on one of these, and each stops by calling
/// `stop()`, which closes the listening socket and every accepted connection still open, waking the threads
/// blocked on them (see `SocketDescriptor`).
///
/// When the system has no descriptor left for a new connection (`EMFILE`, `ENFILE`), `accept()` does not give up
/// and does not spin: it waits, `firstPause` and then twice as long each time up to `longestPause`, and tries again,
/// so that a server keeps serving the connections it has and takes new ones as soon as descriptors come back.
public final class SocketListener: Sendable {
    /// The port it listens on.
    public let port: UInt16
    /// The first wait after `accept` found no descriptor left; each next one is twice as long, up to `longestPause`.
    public static let firstPause = Duration.milliseconds(10)
    /// The longest wait between two tries of `accept` while no descriptor is left.
    public static let longestPause = Duration.seconds(1)

    private let descriptor: SocketDescriptor
    private let connections = Lock<(stopped: Bool, open: [SocketDescriptor])>(
        (false, []), name: "SocketListener.connections")
    private let pause: @Sendable (Duration) -> Void
    private let firstPauseLength: Duration
    private let afterAccept: (@Sendable () -> Void)?
    private let stopping = DispatchSemaphore(value: 0)

    /// Listens on `host`:`port`; port 0 lets the system choose a free one, which `port` then tells.
    ///
    /// Its system calls, and its connections', go through `faults` (a test's). `pause` waits out a back-off (`nil`:
    /// waits, and `stop()` ends the wait at once); a test may record the pauses instead.
    public convenience init(
        host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 128, faults: SystemCallFaults = .none,
        pause: (@Sendable (Duration) -> Void)? = nil
    ) throws(SocketError) {
        try self.init(
            host: host, port: port, backlog: backlog, faults: faults, pause: pause, firstPause: Self.firstPause,
            afterAccept: nil)
    }

    /// A listener for a test: its first wait for descriptors is `firstPause` (to tell a wait `stop()` ended from one
    /// that ran its course), and `afterAccept` runs between the system's accept and the listener's bookkeeping (where
    /// a `stop()` may land in a program, and a test puts one).
    init(
        host: String, port: UInt16, backlog: Int32, faults: SystemCallFaults,
        pause: (@Sendable (Duration) -> Void)?, firstPause: Duration, afterAccept: (@Sendable () -> Void)?
    ) throws(SocketError) {
        self.firstPauseLength = firstPause
        self.afterAccept = afterAccept
        (descriptor, self.port) = try Socket.bind(host: host, port: port, backlog: backlog, faults: faults)
        let stopping = stopping
        self.pause = pause ?? { duration in _ = stopping.wait(timeout: .now() + duration.timeInterval) }
    }

    /// The next connection, or `nil` once the listener is stopped.
    public func accept() -> SocketDescriptor? {
        var pauseLength = firstPauseLength
        while true {
            let connection: SocketDescriptor
            do throws(SocketError) {
                connection = try Socket.accept(descriptor)
            } catch .closed {
                return nil
            } catch {
                // No descriptor left for a connection: it waits in the listen queue. Wait, then try again.
                guard !connections.withLock({ $0.stopped }) else { return nil }
                pause(pauseLength)
                pauseLength = min(pauseLength * 2, Self.longestPause)
                continue
            }
            afterAccept?()
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
        stopping.signal()
        for connection in open { connection.close() }
    }
}

extension Duration {
    /// The duration in seconds, as Dispatch's waits take it.
    fileprivate var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
