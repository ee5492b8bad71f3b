import Foundation

/// The process's standard output and standard error as the line writers the programs take.
///
/// `FileHandle` writes are unbuffered: a line reaches a pipe before the process exits, and stays in order with
/// the other stream.
public enum StandardStreams {
    /// Writes a line to standard output.
    public static let output: @Sendable (String) -> Void = { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes a line to standard error.
    public static let errorOutput: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
