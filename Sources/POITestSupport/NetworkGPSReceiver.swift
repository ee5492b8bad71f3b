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
    public init() throws(SocketError) {
        listener = try SocketListener(backlog: 1)
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
    public func waitForGPSD(timeout: Duration = .seconds(5)) async throws {
        try await BlockingCall.run { [self] in
            let deadline = ContinuousClock.now.advanced(by: timeout)
            do throws(SocketError) {
                try listener.waitForConnection(until: deadline)
            } catch {
                throw Failure(
                    description: "gpsd did not connect to \(source) within \(timeout) (\(error)); did it start?")
            }
            guard let connection = listener.accept() else { throw Failure(description: "the receiver was stopped") }
            gpsd.withLock { $0 = connection }
        }
    }

    /// Sends `sentences` (NMEA 0183, each ending in CR LF) to gpsd and returns the fix gpsd reports from them.
    ///
    /// It watches gpsd on `gpsdPort` as a client first, and sends the track only once gpsd has acknowledged the
    /// WATCH, so the report that carries the fix cannot pass before the watch.
    @discardableResult
    public func replay(_ sentences: String, throughGPSDOnPort gpsdPort: UInt16, timeout: Duration = .seconds(5))
        async throws -> GPSDReport
    {
        try await BlockingCall.run { [self] in
            let deadline = ContinuousClock.now.advanced(by: timeout)
            guard let gpsd = self.gpsd.withLock({ $0 }) else {
                throw Failure(description: "gpsd has not connected; call waitForGPSD() first")
            }
            let watcher = try LineConnection(host: "127.0.0.1", port: gpsdPort, deadline: deadline)
            try watcher.send(#"?WATCH={"enable":true,"json":true};"# + "\n")
            // gpsd greets (VERSION), lists its devices (DEVICES), then acknowledges the watch (WATCH).
            while try GPSDReport(line: watcher.readLine(deadline: deadline)) != .other(className: "WATCH") {}
            try Socket.send(Array(sentences.utf8), to: gpsd)
            while true {
                let report = try GPSDReport(line: watcher.readLine(deadline: deadline))
                if report.fix != nil { return report }
            }
        }
    }

    /// Closes the connection to gpsd (which sees its receiver go away) and stops listening.
    public func stop() {
        listener.stop()
    }
}
