// The `poi-server` executable: a thin shell over POIServerCommand's `ServerCommand`.
import Foundation
import POICommandLine
import POIServerCommand

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// First, before any other thread starts: see StopSignals.
let stopSignals = StopSignals.block()
let command = ServerCommand(
    environment: ProcessInfo.processInfo.environment, output: StandardStreams.output,
    errorOutput: StandardStreams.errorOutput)
Task {
    let code = await command.run(Array(CommandLine.arguments.dropFirst()), until: stopSignals.wait)
    exit(code.rawValue)
}
// Not dispatchMain(): on Linux it parks the main thread in sigsuspend with an empty mask, which unblocks the stop
// signals there and lets them kill the process.
RunLoop.main.run()
