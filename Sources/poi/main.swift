// The `poi` command-line tool: a thin shell over POIApp's `POICommandLine`.
import Foundation
import POIApp

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let commandLine = POICommandLine(
    // FileHandle writes are unbuffered: output reaches a pipe before `exit`, and stays in order with stderr.
    output: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
    errorOutput: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
)
Task { @MainActor in
    let code = await commandLine.run(Array(CommandLine.arguments.dropFirst()))
    exit(code.rawValue)
}
// The main run loop drives the main actor and `poi featured`'s timers.
RunLoop.main.run()
