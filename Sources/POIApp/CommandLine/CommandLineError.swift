/// A failure that ends a command: a one-line message for stderr and the exit status for its kind.
public struct CommandLineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public let code: ExitCode
    /// What was wrong and how to fix it, on one line.
    public let message: String

    /// Creates the error.
    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A usage error that points at the help of `command`: a command of `poi` ("nearby"), or a program of its own
    /// ("poi-server").
    public static func usage(_ message: String, command: String? = nil) -> CommandLineError {
        let help =
            switch command {
            case nil: "poi --help"
            case let program? where program.hasPrefix("poi-"): "\(program) --help"
            case let command?: "poi help \(command)"
            }
        return CommandLineError(.usage, "\(message) (see '\(help)')")
    }

    /// How a message names `command`: "poi nearby", or "poi-server" for a program of its own.
    static func displayName(of command: String) -> String {
        command.hasPrefix("poi-") ? command : "poi \(command)"
    }

    public var description: String {
        message
    }
}
