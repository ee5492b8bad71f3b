import Foundation
import POIDomain
import POINetworking
public import POIServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `poi-server` command line: starts the stub server, prints its URL as the first line, and stops cleanly on
/// SIGINT or SIGTERM.
public enum ServerCommand {
    /// The help `poi-server --help` prints.
    public static let help = """
        poi-server: serves places over HTTP for poi and its tests.

        Usage: poi-server [--host ADDRESS] [--port PORT] [--data FILE] [--fault NAME] [--slow-ms MS]
                          [--idle-timeout SECONDS]
               poi-server --version

          --host ADDRESS          address to bind (default 127.0.0.1)
          --port PORT             port (default 0: the system chooses; the first line of output is the URL)
          --data FILE             a JSON array of places instead of the bundled San Jose places
          --fault NAME            fail every /locations request: \(StubServerFault.names)
          --slow-ms MS            delay of the slow fault (default 2000)
          --idle-timeout SECONDS  time a client has to send its request (default 5)

        Endpoints: GET /locations?lat=..&long=..[&radius=METRES][&limit=N][&fault=NAME], GET /health
        """

    /// Parses `arguments` into a server configuration.
    public static func configuration(_ arguments: [String]) throws(CommandLineError) -> StubServer.Configuration {
        let parsed = try ParsedArguments.parse(
            arguments,
            command: "poi-server",
            valueOptions: ["host", "port", "data", "fault", "slow-ms", "idle-timeout"],
            flags: []
        )
        func usage(_ message: String) -> CommandLineError {
            .usage(message, command: "poi-server")
        }
        if let extra = parsed.positional.first { throw usage("unexpected argument '\(extra)'") }
        var configuration = StubServer.Configuration()
        if let host = parsed.values["host"] { configuration.host = host }
        if let text = parsed.values["port"] {
            guard let port = UInt16(text) else { throw usage("--port must be 0...65535, not '\(text)'") }
            configuration.port = port
        }
        if let path = parsed.values["data"] {
            configuration.routes.places = try places(from: path)
        }
        if let name = parsed.values["fault"] {
            guard let fault = StubServerFault(rawValue: name) else {
                throw usage("--fault must be one of \(StubServerFault.names), not '\(name)'")
            }
            configuration.routes.fault = fault
        }
        if let text = parsed.values["slow-ms"] {
            guard let milliseconds = Int(text), milliseconds >= 0 else {
                throw usage("--slow-ms must be a whole number of milliseconds, not '\(text)'")
            }
            configuration.routes.slowDelay = .milliseconds(milliseconds)
        }
        if let text = parsed.values["idle-timeout"] {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw usage("--idle-timeout must be a positive number of seconds, not '\(text)'")
            }
            configuration.idleTimeout = .milliseconds(Int(seconds * 1000))
        }
        return configuration
    }

    /// Reads a JSON array of places.
    static func places(from path: String) throws(CommandLineError) -> [PointOfInterest] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandLineError(.usage, "--data: cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode([PointOfInterest].self, from: data)
        } catch let error as DecodingError {
            throw CommandLineError(.usage, "--data: \(path) is not a JSON array of places: \(error.reason)")
        } catch {
            throw CommandLineError(.usage, "--data: \(path) is not a JSON array of places")
        }
    }

    /// Runs the server until SIGINT or SIGTERM; returns the exit status.
    public static func main(_ arguments: [String]) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(help)
            return .success
        }
        if arguments.first == "--version" {
            guard arguments.count == 1 else {
                let error = CommandLineError.usage(
                    "unexpected argument '\(arguments[1])' after --version", command: "poi-server")
                FileHandle.standardError.write(Data("poi-server: \(error.message)\n".utf8))
                return error.code
            }
            print("poi-server \(POICommandLine.version)")
            return .success
        }
        // SIGINT and SIGTERM are blocked before any thread starts, so every thread inherits the mask and a signal
        // sent at any moment stays pending until the waiting thread below takes it: none is lost, none kills the
        // process. (A dispatch signal source plus SIG_IGN races on Linux: whichever is installed last wins.)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

        let server: StubServer
        do {
            server = try StubServer(configuration: try configuration(arguments))
        } catch let error as CommandLineError {
            FileHandle.standardError.write(Data("poi-server: \(error.message)\n".utf8))
            return error.code
        } catch {
            FileHandle.standardError.write(Data("poi-server: cannot listen: \(error)\n".utf8))
            return .serverUnreachable
        }
        let waitedSignals = stopSignals
        Thread.detachNewThread {
            var signals = waitedSignals
            var received: Int32 = 0
            sigwait(&signals, &received)
            server.stop()
        }
        // The first line is the URL, written at once so that a test reading the pipe sees it.
        FileHandle.standardOutput.write(Data("\(server.url.absoluteString)\n".utf8))
        server.waitUntilStopped()
        return .success
    }
}
