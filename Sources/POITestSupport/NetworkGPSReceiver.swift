import Foundation
public import POILocation
import POILock
public import POISockets

/// A GPS receiver on the network, for a real gpsd to read: the end-to-end tier's way to give gpsd a position.
///
/// It listens on `127.0.0.1`, port 0; gpsd, started with `source` as its device and `-n`, connects to it at once,
/// as to a networked receiver that speaks NMEA 0183. `waitForGPSD(timeout:)` returns when it has, and
/// `replay(_:throughGPSDOnPort:timeout:)` sends a recorded track and returns when gpsd reports the fix it made of it,
/// so a test knows that gpsd has a position without waiting on time. Call `stop()` in a `defer` right after
/// creating it.
public final class NetworkGPSReceiver: Sendable {
    /// Why gpsd did not do what the receiver expected.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// The port it listens on.
    public var port: UInt16 { listener.port }

    private let listener: SocketListener
    private let gpsd = Lock<SocketDescriptor?>(nil)

    /// Starts listening on a loopback port chosen by the system.
    public convenience init() throws(SocketError) {
        try self.init(faults: .none)
    }

    /// A receiver whose listener's system calls go through `faults`: a test sees its wait for gpsd reach `poll`.
    init(faults: SystemCallFaults) throws(SocketError) {
        listener = try SocketListener(backlog: 1, faults: faults)
    }

    deinit {
        stop()
    }

    /// The device to give gpsd on its command line: `tcp://127.0.0.1:<port>`.
    public var source: String {
        "tcp://127.0.0.1:\(port)"
    }

    /// Returns when gpsd has connected, or throws after `timeout`.
    ///
    /// gpsd opens the port its clients use before it opens its devices (gpsd.c, `main`), so once it has connected
    /// here it also accepts clients.
    ///
    /// Cancelling the calling task ends the wait at once with `CancellationError`, and stops the receiver as `stop()`
    /// does: the wait is on its listening socket, which only a stop wakes. Nothing is left waiting, and a later call
    /// throws `Failure` at once.
    public func waitForGPSD(timeout: Duration = .seconds(5)) async throws {
        let wait = CancellableWait()
        try await withTaskCancellationHandler {
            try await BlockingCall.run { [self] in
                let deadline = ContinuousClock.now.advanced(by: timeout)
                do throws(SocketError) {
                    try listener.waitForConnection(until: deadline)
                } catch {
                    throw wait.reason(
                        Failure(
                            description: "gpsd did not connect to \(source) within \(timeout) (\(error)); did it start?"
                        ))
                }
                guard let connection = listener.accept() else {
                    throw wait.reason(Failure(description: "the receiver was stopped"))
                }
                try wait.end()
                gpsd.withLock { $0 = connection }
            }
        } onCancel: { [self] in
            if wait.cancel() { stop() }
        }
    }

    /// Sends `sentences` (NMEA 0183, each ending in CR LF) to gpsd and returns the fix gpsd reports from them.
    ///
    /// It watches gpsd on `gpsdPort` as a client first, and sends the track only once gpsd has acknowledged the
    /// WATCH, so the report that carries the fix cannot pass before the watch.
    ///
    /// Cancelling the calling task ends the call at once with `CancellationError`: it closes its connection to
    /// `gpsdPort`, which ends the read that waits on it. gpsd's connection to the receiver stays, so a later call can
    /// replay again.
    @discardableResult
    public func replay(_ sentences: String, throughGPSDOnPort gpsdPort: UInt16, timeout: Duration = .seconds(5))
        async throws -> GPSDReport
    {
        let wait = CancellableWait()
        return try await withTaskCancellationHandler {
            try await BlockingCall.run { [self] in
                do {
                    let deadline = ContinuousClock.now.advanced(by: timeout)
                    guard let gpsd = self.gpsd.withLock({ $0 }) else {
                        throw Failure(description: "gpsd has not connected; call waitForGPSD() first")
                    }
                    let watcher = LineConnection(
                        try wait.hold(Socket.connect(host: "127.0.0.1", port: gpsdPort, deadline: deadline)))
                    try watcher.send(#"?WATCH={"enable":true,"json":true};"# + "\n")
                    // gpsd greets (VERSION), lists its devices (DEVICES), then acknowledges the watch (WATCH).
                    while try GPSDReport(line: watcher.readLine(deadline: deadline)) != .other(className: "WATCH") {}
                    try Socket.send(Array(sentences.utf8), to: gpsd)
                    while true {
                        let report = try GPSDReport(line: watcher.readLine(deadline: deadline))
                        if report.fix != nil { return report }
                    }
                } catch {
                    throw wait.reason(error)
                }
            }
        } onCancel: {
            _ = wait.cancel()
        }
    }

    /// Closes the connection to gpsd (which sees its receiver go away) and stops listening.
    public func stop() {
        listener.stop()
    }
}

/// A blocking wait that the calling task's cancellation ends: whether it was cancelled, whether it ended first, and
/// the socket to close to wake it.
private final class CancellableWait: Sendable {
    private let state = Lock<(cancelled: Bool, ended: Bool, socket: SocketDescriptor?)>((false, false, nil))

    /// Marks the wait cancelled, closing the socket it holds, unless it has ended; returns whether it had not.
    func cancel() -> Bool {
        let (cancelled, socket) = state.withLock { state -> (Bool, SocketDescriptor?) in
            guard !state.ended else { return (false, nil) }
            state.cancelled = true
            return (true, state.socket)
        }
        socket?.close()
        return cancelled
    }

    /// Holds `socket` for `cancel()` to close; closes it and throws `CancellationError` when cancelled already.
    func hold(_ socket: SocketDescriptor) throws -> SocketDescriptor {
        let cancelled = state.withLock { state in
            state.socket = socket
            return state.cancelled
        }
        guard !cancelled else {
            socket.close()
            throw CancellationError()
        }
        return socket
    }

    /// Ends the wait, or throws `CancellationError` when it was cancelled first.
    func end() throws {
        let cancelled = state.withLock { state in
            state.ended = !state.cancelled
            return state.cancelled
        }
        if cancelled { throw CancellationError() }
    }

    /// What the wait throws for `error`: `CancellationError` once cancelled, whatever ended it.
    func reason(_ error: any Error) -> any Error {
        state.withLock { $0.cancelled } ? CancellationError() : error
    }
}
