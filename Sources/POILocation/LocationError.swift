public import POIDomain

/// Why a fetcher could not find the current position.
public enum LocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// gpsd does not answer at `host`:`port`; `reason` is what the system said.
    case gpsdUnreachable(host: String, port: UInt16, reason: String)
    /// gpsd answers but its receiver has no position fix; `mode` is the last fix mode it reported.
    case noFix(mode: Int)
    /// gpsd closed the connection before reporting a position.
    case gpsdClosedConnection
    /// gpsd did not report a position within `seconds`.
    case timedOut(seconds: Double)
    /// gpsd sent something that is not one of its JSON reports, or reported an error.
    case gpsdError(String)
    /// A position given by the user is not on Earth.
    case invalidCoordinate(CoordinateError)

    /// A sentence that says what went wrong and what to do about it.
    public var description: String {
        switch self {
        case .gpsdUnreachable(let host, let port, let reason):
            "gpsd is not running at \(host):\(port) (\(reason)): start gpsd, or give the position with --lat and --long"
        case .noFix(let mode):
            "gpsd has no position fix (last mode \(mode): \(Self.modeName(mode))): wait for the receiver to see satellites"
        case .gpsdClosedConnection:
            "gpsd closed the connection before it reported a position"
        case .timedOut(let seconds):
            "gpsd reported no position within \(seconds) seconds"
        case .gpsdError(let message):
            "gpsd: \(message)"
        case .invalidCoordinate(let error):
            error.message
        }
    }

    private static func modeName(_ mode: Int) -> String {
        switch mode {
        case 1: "no fix"
        case 2: "2D fix"
        case 3: "3D fix"
        default: "unknown"
        }
    }
}
