import Foundation
import POIApp
public import POICommandLine

/// The `poi` program: reads the command line, launches the app the way the talk launches it, and runs a command.
///
/// Its environment and its two outputs are injected, so the unit tier runs it in process; the executable is a thin
/// shell that passes the process's own. Every failure becomes one line on the error output and the exit status of
/// its kind.
public struct POICommand: Sendable {
    /// What launching the app may skip under `IS_UNIT_TESTING=1`: a tip on the error output.
    static let tip = "poi: tip: 'poi help nearby' lists every option and variable; IS_UNIT_TESTING=1 hides this tip"

    static let launchVariable = EnvironmentVariable(
        AppLaunch.unitTestingVariable, "1 skips optional start-up work: the tip on stderr (the talk's launch shortcut)")

    /// The commands, in the help's order.
    static let commands = [NearbyCommand.description, FeaturedCommand.description]

    static let description = CommandDescription(
        name: "poi",
        helpCommand: "poi --help",
        abstract: "points of interest near a position, nearest first (WWDC 2018 session 417's app)",
        arguments: "COMMAND",
        environment: [launchVariable],
        discussion: [
            (["Commands:"] + commands.map { "  \($0.usage)" } + [
                "  poi help [COMMAND]    (also: poi --help [COMMAND])", "  poi --version",
            ])
            .joined(separator: "\n"),
            "Without --\(NearbyCommand.server.name) (or \(NearbyCommand.serverVariable.name)), poi nearby starts the "
                + "package's server in-process on 127.0.0.1.",
        ],
        exitCodes: Array(Set(commands.flatMap(\.exitCodes))).sorted { $0.rawValue < $1.rawValue }
    )

    /// The process environment; `environmentVariables` lists what poi reads of it.
    public var environment: [String: String]
    /// Where results go (standard output in the executable).
    public var output: @Sendable (String) -> Void
    /// Where messages go (standard error in the executable).
    public var errorOutput: @Sendable (String) -> Void

    /// Creates the program with its environment and its two outputs.
    public init(
        environment: [String: String],
        output: @escaping @Sendable (String) -> Void,
        errorOutput: @escaping @Sendable (String) -> Void
    ) {
        self.environment = environment
        self.output = output
        self.errorOutput = errorOutput
    }

    /// Every environment variable poi reads, the ones of its commands included.
    public static var environmentVariables: [EnvironmentVariable] {
        description.environment + commands.flatMap(\.environment)
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
            throw Self.description.usageError("no command given; try 'poi nearby --lat 37.3293 --long -121.8893'")
        }
        let rest = Array(arguments.dropFirst())
        let wantsHelp = Self.commands.first { $0.name == "poi \(command)" }?.asksForHelp(rest) ?? false
        switch command {
        case "help", "--help", "-h":
            // `poi --help nearby` is `poi help nearby`, as with git.
            guard rest.count <= 1 else {
                throw Self.description.usageError("'poi \(command)' takes at most one command")
            }
            guard let text = Self.help(rest.first) else {
                throw Self.description.usageError("no command named '\(rest[0])'")
            }
            output(text)
        case "--version":
            if let extra = rest.first {
                throw Self.description.usageError("unexpected argument '\(extra)' after --version")
            }
            output("poi \(PackageVersion.current)")
        case "nearby" where wantsHelp, "featured" where wantsHelp:
            output(Self.help(command)!)
        case "nearby":
            let nearby = NearbyCommand(environment: environment)
            let request = try nearby.parse(rest)
            launch()
            try await nearby.run(request, output: output)
        case "featured":
            let featured = FeaturedCommand()
            let (interval, count) = try featured.parse(rest)
            launch()
            await featured.run(interval: interval, count: count, output: output)
        default:
            throw Self.description.usageError("no command named '\(command)'")
        }
    }

    /// Finishes launching through the talk's `AppLaunch`: the optional tip is skipped under `IS_UNIT_TESTING=1`.
    ///
    /// It runs once the command line has been read, so a usage error stays the only line on the error output.
    private func launch() {
        AppLaunch(environment: environment).performOptionalWork { errorOutput(Self.tip) }
    }

    /// The help of `command`, or of `poi` itself for `nil`; `nil` for an unknown command.
    public static func help(_ command: String?) -> String? {
        switch command {
        case nil: description.help
        case "help": "poi help [COMMAND]: shows the help of poi or of one command."
        case let name?: commands.first { $0.name == "poi \(name)" }?.help
        }
    }
}
