/// The exit statuses of `poi` and `poi-server`: one table, one status per kind of failure.
///
/// Where BSD's sysexits.h has a status that means the same thing, the status is that one (`sysexits` names it);
/// two failures have no such status, and take statuses of their own above sysexits.h's range.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Everything went well.
    case success = 0
    /// The command line is wrong: an unknown command or option, a missing or malformed value.
    case usage = 64
    /// An input is not valid data: a coordinate not on Earth, a `--data` file that is not places.
    case invalidInput = 65
    /// An input file cannot be read.
    case unreadableInput = 66
    /// The server cannot be reached, or closed the connection without answering.
    case serverUnreachable = 69
    /// A server cannot listen: the address is in use, or not one of this machine's.
    case cannotListen = 71
    /// The server did not answer in time; trying again may work.
    case timeout = 75
    /// The server's answer is not what the API promises.
    case malformedResponse = 76
    /// The current position cannot be found: gpsd is not running, or has no fix.
    case noLocation = 80
    /// The server answered with an HTTP error status.
    case httpError = 81

    /// The sysexits.h name the status follows, or `nil` for a status of this package's own.
    public var sysexits: String? {
        switch self {
        case .success: "EX_OK"
        case .usage: "EX_USAGE"
        case .invalidInput: "EX_DATAERR"
        case .unreadableInput: "EX_NOINPUT"
        case .serverUnreachable: "EX_UNAVAILABLE"
        case .cannotListen: "EX_OSERR"
        case .timeout: "EX_TEMPFAIL"
        case .malformedResponse: "EX_PROTOCOL"
        case .noLocation, .httpError: nil
        }
    }

    /// What the status means, for the help.
    public var summary: String {
        switch self {
        case .success: "done"
        case .usage: "the command line is wrong"
        case .invalidInput: "an input is not valid"
        case .unreadableInput: "an input file cannot be read"
        case .serverUnreachable: "the server cannot be reached"
        case .cannotListen: "a server cannot listen on its address"
        case .timeout: "the server did not answer in time"
        case .malformedResponse: "the server's answer is not the API's JSON"
        case .noLocation: "the current position cannot be found"
        case .httpError: "the server answered with an HTTP error"
        }
    }
}
