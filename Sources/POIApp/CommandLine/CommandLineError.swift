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

    /// A usage error that points at the help of `command`.
    public static func usage(_ message: String, command: String? = nil) -> CommandLineError {
        let help = command.map { "poi help \($0)" } ?? "poi --help"
        return CommandLineError(.usage, "\(message) (see '\(help)')")
    }

    public var description: String {
        message
    }
}
