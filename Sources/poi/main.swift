// The `poi` executable: a thin shell over POICommands' `POICommand`.
import Foundation
import POICommandLine
import POICommands

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let command = POICommand(
    environment: ProcessInfo.processInfo.environment,
    output: StandardStreams.output,
    errorOutput: StandardStreams.errorOutput
)
Task { @MainActor in
    let code = await command.run(Array(CommandLine.arguments.dropFirst()))
    exit(code.rawValue)
}
// The main run loop drives the main actor and `poi featured`'s timers.
RunLoop.main.run()
