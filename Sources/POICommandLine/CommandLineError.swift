/// A failure that ends a command: a one-line message for stderr and the exit status of its kind.
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

    public var description: String {
        message
    }
}
