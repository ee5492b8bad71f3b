import Foundation
public import POICommandLine
import POIDomain
public import POIServer
import POISockets

/// The `poi-server` program: starts the stub server, prints its URL as the first line, and stops when told.
///
/// Its environment, its outputs and its stop trigger are injected, so the unit tier runs it in process and stops it
/// without a signal; the executable passes the process's own and `StopSignals`. It reads one environment variable,
/// `POI_SYSTEM` (`SystemProfile`), which it only checks: the sockets read it themselves.
public struct ServerCommand: Sendable {
    static let defaults = StubServer.Configuration()

    static let host = Option.value("host", "ADDRESS", "address to bind", default: defaults.host)
    static let port = Option.value(
        "port", "PORT", "port, 0...65535; 0 lets the system choose, and the first line of output is the URL",
        default: "\(defaults.port)")
    static let data = Option.value(
        "data", "FILE", "a JSON array of places to serve instead of the bundled San Jose places; [] serves none")
    static let fault = Option.value("fault", "NAME", "fail every /locations request: \(StubServerFault.names)")
    static let slowDelay = Option.value(
        "slow-ms", "MS", "delay of the slow and stall faults, in milliseconds, at most \(maximumSlowMilliseconds)",
        default: "\(Int(defaults.routes.slowDelay / .milliseconds(1)))")
    /// The longest `--slow-ms`: a day, the bound of every wait of the programs (`Option.maximumSeconds`).
    static let maximumSlowMilliseconds = Int(Option.maximumSeconds) * 1000
    static let idleTimeout = Option.seconds(
        "idle-timeout", "time a client has to send its request", default: defaults.idleTimeout / .seconds(1))
    static let systemVariable = EnvironmentVariable(SystemProfile.variable, SystemProfile.summary)

    static let description = CommandDescription(
        name: "poi-server",
        helpCommand: "poi-server --help",
        abstract: "serves places over HTTP for poi and its tests, until SIGINT or SIGTERM.",
        options: [host, port, data, fault, slowDelay, idleTimeout],
        environment: [systemVariable],
        discussion: [
            "Also: poi-server --version, poi-server --help",
            "Endpoints: GET /locations?lat=..&long=..[&radius=METRES][&limit=N][&fault=NAME], GET /health",
        ],
        examples: ["poi-server --port 8080", "poi-server --fault slow --slow-ms 500"],
        exitCodes: [.success, .usage, .invalidInput, .unreadableInput, .cannotListen]
    )

    /// The process environment; `description` lists what poi-server reads of it.
    public var environment: [String: String]
    /// Where the URL, the help and the version go (standard output in the executable).
    public var output: @Sendable (String) -> Void
    /// Where messages go (standard error in the executable).
    public var errorOutput: @Sendable (String) -> Void

    /// Creates the program with its environment (none by default) and its two outputs.
    public init(
        environment: [String: String] = [:], output: @escaping @Sendable (String) -> Void,
        errorOutput: @escaping @Sendable (String) -> Void
    ) {
        self.environment = environment
        self.output = output
        self.errorOutput = errorOutput
    }

    /// Checks what poi-server reads of `environment`: a `POI_SYSTEM` the sockets cannot follow is a usage error, said
    /// before anything listens (the sockets themselves would stop the process).
    static func checkEnvironment(_ environment: [String: String]) throws(CommandLineError) {
        do throws(SystemProfile.UnknownProfile) {
            _ = try SystemProfile(environmentValue: environment[systemVariable])
        } catch {
            throw description.usageError(error.description)
        }
    }

    /// The help `poi-server --help` prints.
    public static var help: String {
        description.help
    }

    /// Runs `arguments` (without the program name): serves until `stop` returns, then stops the server and
    /// returns the exit status.
    public func run(_ arguments: [String], until stop: @Sendable () async -> Void) async -> ExitCode {
        do throws(CommandLineError) {
            if Self.description.asksForHelp(arguments) {
                output(Self.help)
                return .success
            }
            if arguments.first == "--version" {
                if arguments.count > 1 {
                    throw Self.description.usageError("unexpected argument '\(arguments[1])' after --version")
                }
                output("poi-server \(PackageVersion.current)")
                return .success
            }
            let configuration = try Self.configuration(arguments)
            try Self.checkEnvironment(environment)
            let server: StubServer
            do {
                server = try StubServer(configuration: configuration)
            } catch {
                throw CommandLineError(.cannotListen, "\(error)")
            }
            // The first line is the URL, written at once so that a test reading the pipe sees it.
            output(server.url.absoluteString)
            await stop()
            server.stop()
            await BlockingCall.run { server.waitUntilStopped() }
            return .success
        } catch {
            errorOutput("poi-server: \(error.message)")
            return error.code
        }
    }

    /// Parses `arguments` into a server configuration.
    public static func configuration(_ arguments: [String]) throws(CommandLineError) -> StubServer.Configuration {
        let parsed = try description.parse(arguments)
        try parsed.expectNoPositional()
        var configuration = StubServer.Configuration()
        if let host = parsed.value(host) { configuration.host = host }
        if let text = parsed.value(port) {
            guard let port = UInt16(text) else {
                throw description.usageError("--port must be 0...65535, not '\(text)'")
            }
            configuration.port = port
        }
        if let path = parsed.value(data) {
            // The file's places, all and only: an empty array serves none, it does not fall back to the bundled ones.
            configuration.routes.places = try places(from: path)
        }
        if let name = parsed.value(fault) {
            guard let fault = StubServerFault(rawValue: name) else {
                throw description.usageError("--fault must be one of \(StubServerFault.names), not '\(name)'")
            }
            configuration.routes.fault = fault
        }
        if let milliseconds = try parsed.integer(slowDelay, minimum: 0, maximum: maximumSlowMilliseconds) {
            configuration.routes.slowDelay = .milliseconds(milliseconds)
        }
        if let seconds = try parsed.seconds(idleTimeout) {
            configuration.idleTimeout = .milliseconds(Int((seconds * 1000).rounded(.up)))
        }
        return configuration
    }

    /// Reads a JSON array of places: a file that cannot be read is `unreadableInput`, one that is not places
    /// `invalidInput`.
    static func places(from path: String) throws(CommandLineError) -> [PointOfInterest] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandLineError(.unreadableInput, "--data: cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode([PointOfInterest].self, from: data)
        } catch let error as DecodingError {
            // Foundation calls a document with a number past a Double's range "not valid JSON": say which number.
            let reason = OutOfRangeNumber.first(in: data)?.description ?? error.reason
            throw CommandLineError(.invalidInput, "--data: \(path) is not a JSON array of places: \(reason)")
        } catch {
            throw CommandLineError(.invalidInput, "--data: \(path) is not a JSON array of places")
        }
    }
}
