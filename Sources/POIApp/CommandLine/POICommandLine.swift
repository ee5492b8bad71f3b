public import Foundation

/// The `poi` command line: parses the arguments and runs a command.
///
/// Every failure becomes a one-line message on stderr and the exit status of its kind; the executable is a thin
/// shell over `run`.
public struct POICommandLine: Sendable {
    /// The version `poi --version` prints.
    public static let version = "1.0.0"

    /// The process environment: `POI_SERVER_URL`, `POI_GPSD_HOST`, `POI_GPSD_PORT`, `IS_UNIT_TESTING`.
    public var environment: [String: String]
    /// Where results go (standard output in the executable).
    public var output: @Sendable (String) -> Void
    /// Where messages go (standard error in the executable).
    public var errorOutput: @Sendable (String) -> Void

    /// Creates the command line with its environment and its two outputs.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        output: @escaping @Sendable (String) -> Void,
        errorOutput: @escaping @Sendable (String) -> Void
    ) {
        self.environment = environment
        self.output = output
        self.errorOutput = errorOutput
    }

    /// Runs `arguments` (without the program name) and returns the exit status.
    @MainActor
    public func run(_ arguments: [String]) async -> ExitCode {
        do {
            try await dispatch(arguments)
            return .success
        } catch {
            errorOutput("poi: \(error.message)")
            return error.code
        }
    }

    @MainActor
    private func dispatch(_ arguments: [String]) async throws(CommandLineError) {
        guard let command = arguments.first else {
            throw .usage("no command given; try 'poi nearby --lat 37.3293 --long -121.8893'")
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "help", "--help", "-h":
            // `poi --help nearby` is `poi help nearby`, as with git.
            guard rest.count <= 1 else { throw .usage("'poi \(command)' takes at most one command") }
            guard let text = Self.help(rest.first) else {
                throw .usage("no command named '\(rest[0])'")
            }
            output(text)
        case "--version":
            if let extra = rest.first { throw .usage("unexpected argument '\(extra)' after --version") }
            output("poi \(Self.version)")
        case "nearby":
            if rest.contains("--help") || rest.contains("-h") { return output(Self.help("nearby")!) }
            try await NearbyCommand(arguments: rest, environment: environment).run(output: output)
        case "featured":
            if rest.contains("--help") || rest.contains("-h") { return output(Self.help("featured")!) }
            try await FeaturedCommand(arguments: rest).run(output: output)
        default:
            throw .usage("no command named '\(command)'")
        }
    }

    /// The help of `command`, or of `poi` itself for `nil`; `nil` for an unknown command.
    public static func help(_ command: String?) -> String? {
        switch command {
        case nil:
            """
            poi: points of interest near a position, nearest first (WWDC 2018 session 417's app)

            Usage:
              poi nearby [--lat DEGREES --long DEGREES] [--limit N] [--json] [--server URL] [--timeout SECONDS]
              poi featured [--interval SECONDS] [--count N]
              poi help [COMMAND]    (also: poi --help [COMMAND])
              poi --version

            Without --server (or POI_SERVER_URL), poi starts the package's server in-process on 127.0.0.1.
            Exit status: 0 ok, 64 usage, 65 invalid coordinate, 66 no location, 69 server unreachable,
            70 HTTP error, 75 timeout, 76 malformed response.
            """
        case "nearby":
            """
            poi nearby: lists the places near a position, nearest first, each with its distance.

            Options:
              --lat DEGREES      latitude, -90...90 (with --long; without both, gpsd is asked for the position)
              --long DEGREES     longitude, -180...180
              --limit N          show at most N places
              --json             print the result as JSON (schema in docs/cli.md)
              --server URL       the server's base URL (default: $POI_SERVER_URL, else an in-process server)
              --timeout SECONDS  how long to wait for the server (default 10)

            Example: poi nearby --lat 37.3293 --long -121.8893 --limit 5
            """
        case "featured":
            """
            poi featured: shows the featured place, then the next one every interval.

            Options:
              --interval SECONDS  time between two places (default 10)
              --count N           stop after N more places (default: run until interrupted)

            Example: poi featured --interval 2 --count 3
            """
        case "help":
            "poi help [COMMAND]: shows the help of poi or of one command."
        default:
            nil
        }
    }
}
