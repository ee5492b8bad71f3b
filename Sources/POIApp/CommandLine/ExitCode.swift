/// The exit statuses of `poi` and `poi-server`, one per kind of failure (after BSD's sysexits.h).
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Done.
    case success = 0
    /// The command line is wrong: unknown command or option, missing or malformed value.
    case usage = 64
    /// A latitude or longitude is not a position on Earth.
    case invalidCoordinate = 65
    /// The current position could not be found (gpsd not running, no fix).
    case noLocation = 66
    /// The server could not be reached, or closed the connection without answering.
    case serverUnreachable = 69
    /// The server answered with an HTTP error status.
    case httpError = 70
    /// The server did not answer in time.
    case timeout = 75
    /// The server's answer is not the expected JSON.
    case malformedResponse = 76
}
