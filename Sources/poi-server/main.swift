// The `poi-server` executable: a thin shell over POIApp's `ServerCommand`.
import POIApp

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(ServerCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
