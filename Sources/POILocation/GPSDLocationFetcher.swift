import POIDomain
import POILock
public import POISockets

/// A location fetcher that asks gpsd, the Linux GPS daemon, for the current position.
///
/// `requestLocation()` connects to gpsd (TCP port 2947 by default), turns on its JSON reports with
/// `?WATCH={"enable":true,"json":true};` and asks for its latest fix with `?POLL;`, then reads reports on a thread of
/// its own until the POLL answer or a TPV report has a 2D or 3D fix. Polling answers at once when gpsd already has a
/// fix, instead of waiting for the receiver's next report (about a second); without one, the TPV reports that follow
/// decide. It tells its delegate the position, or fails with a `LocationError` that says what went wrong: gpsd is
/// not running, it has no fix, it closed the connection, it sent something that is not a report, or the timeout
/// passed.
public final class GPSDLocationFetcher: LocationFetcher, Sendable {
    /// gpsd's well-known port.
    public static let defaultPort: UInt16 = 2947

    /// The host gpsd runs on.
    public let host: String
    /// The port gpsd listens on.
    public let port: UInt16
    /// How long one request may take, connection included.
    public let timeout: Duration
    /// How many TPV reports without a fix to read before failing with `LocationError.noFix`; gpsd sends about
    /// one a second while its receiver searches.
    public let reportsWithoutFix: Int

    private let state = Lock(FetcherState(), name: "GPSDLocationFetcher.state")

    /// What its connection's system calls do: as usual, unless a test makes them fail (`SystemCallFaults`).
    public let faults: SystemCallFaults

    /// Creates a fetcher for the gpsd at `host`:`port`; its connection's system calls go through `faults` (a test's).
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = GPSDLocationFetcher.defaultPort,
        timeout: Duration = .seconds(10),
        reportsWithoutFix: Int = 5,
        faults: SystemCallFaults = .none
    ) {
        self.host = host
        self.port = port
        self.timeout = timeout
        self.reportsWithoutFix = reportsWithoutFix
        self.faults = faults
    }

    public var locationFetcherDelegate: (any LocationFetcherDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    public var desiredAccuracy: LocationAccuracy {
        get { state.withLock { $0.desiredAccuracy } }
        set { state.withLock { $0.desiredAccuracy = newValue } }
    }

    /// What the fetcher sends gpsd, as one line: turn on JSON reports, then ask for the latest fix.
    static let commands = #"?WATCH={"enable":true,"json":true};?POLL;"# + "\n"

    /// Asks gpsd on a thread of its own (the socket I/O blocks); the delegate hears the answer on that thread.
    public func requestLocation() {
        BlockingCall.start {
            let result = self.fetchPosition()
            let delegate = self.locationFetcherDelegate
            switch result {
            case .success(let position):
                delegate?.locationFetcher(self, didUpdateLocations: [position])
            case .failure(let error):
                delegate?.locationFetcher(self, didFailWithError: error)
            }
        }
    }

    /// Connects, watches, and reads reports until a fix, an error, the end of the stream or the deadline.
    func fetchPosition() -> Result<Coordinate, LocationError> {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        do throws(SocketError) {
            let connection = try LineConnection(host: host, port: port, deadline: deadline, faults: faults)
            try connection.send(Self.commands)
            var reportsSeen = 0
            while true {
                let line = try connection.readLine(deadline: deadline)
                guard !line.isEmpty else { continue }
                let report: GPSDReport
                do {
                    report = try GPSDReport(line: line)
                } catch {
                    return .failure(.gpsdError(error.description))
                }
                switch report {
                case .error(let message):
                    return .failure(.gpsdError(message))
                case .position(let mode, _, _):
                    if let fix = report.fix {
                        return .success(fix)
                    }
                    reportsSeen += 1
                    if reportsSeen >= reportsWithoutFix {
                        return .failure(.noFix(mode: mode))
                    }
                case .poll:
                    // An answer without a fix (no active device yet, or no report): the TPV reports decide.
                    if let fix = report.fix {
                        return .success(fix)
                    }
                case .version, .other:
                    continue
                }
            }
        } catch {
            switch error {
            case .unreachable(let reason):
                return .failure(.gpsdUnreachable(host: host, port: port, reason: reason))
            case .closed, .reset:
                // A reset ends the connection before a position all the same.
                return .failure(.gpsdClosedConnection)
            case .timedOut:
                return .failure(.timedOut(seconds: timeout / .seconds(1)))
            case .io(let reason):
                return .failure(.gpsdError(reason))
            }
        }
    }
}

/// The delegate, held weakly as `CLLocationManager` holds it, and the accuracy asked of the fetcher.
private struct FetcherState {
    weak var delegate: (any LocationFetcherDelegate)?
    var desiredAccuracy: LocationAccuracy = 0
}
