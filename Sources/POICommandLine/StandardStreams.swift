import Foundation

/// The process's standard output and standard error as the line writers the programs take.
///
/// `FileHandle` writes are unbuffered: a line reaches a pipe before the process exits, and stays in order with
/// the other stream.
public enum StandardStreams {
    /// Writes a line to standard output.
    public static let output = lines { text in FileHandle.standardOutput.write(Data(text.utf8)) }

    /// Writes a line to standard error.
    public static let errorOutput = lines { text in FileHandle.standardError.write(Data(text.utf8)) }

    /// The line writer over `write`, which takes text as it is: each line is written with its newline, in one call.
    ///
    /// The executables write through it to the process's streams, and a test that runs a program in process to
    /// streams of its own, so that both see the same bytes.
    public static func lines(_ write: @escaping @Sendable (String) -> Void) -> @Sendable (String) -> Void {
        { line in write(line + "\n") }
    }
}
