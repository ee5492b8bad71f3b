import POICommandLine
import Testing

/// The small parser and the help that both command lines build from one declaration per option.
@Suite("CommandDescription: one declaration per option")
struct CommandDescriptionTests {
    static let latitude = Option.value("lat", "DEGREES", "latitude")
    static let limit = Option.value("limit", "N", "at most N", default: "all")
    static let json = Option.flag("json", "as JSON")
    static let timeout = Option.seconds("timeout", "how long to wait", default: 10)

    static let command = CommandDescription(
        name: "poi nearby",
        helpCommand: "poi help nearby",
        abstract: "lists places.",
        options: [latitude, limit, json, timeout],
        environment: [EnvironmentVariable("POI_SERVER_URL", "the server")],
        discussion: ["Without a server, one starts in-process."],
        examples: ["poi nearby --lat 1", "poi nearby --json"],
        exitCodes: [.success, .usage, .timeout]
    )

    @Test("The usage line names the command, its options, and its arguments last when it takes any")
    func usageLine() {
        let copier = CommandDescription(
            name: "copy", helpCommand: "copy --help", abstract: "copies.", options: [Self.json],
            arguments: "SOURCE DESTINATION")
        #expect(copier.usage == "copy [--json] SOURCE DESTINATION")
        #expect(copier.arguments == "SOURCE DESTINATION")
    }

    @Test(
        "--help and -h ask for the help where an option stands, not as an option's value and not after --",
        arguments: [
            (["--help"], true), (["-h"], true), (["--lat", "1", "--help"], true), (["--json", "-h"], true),
            (["--lat", "--help"], false), (["--lat", "-h"], false), (["--", "--help"], false), (["--lat=1"], false),
            (["--lat=--help"], false), ([], false),
        ]
    )
    func asksForHelp(arguments: [String], asks: Bool) {
        #expect(Self.command.asksForHelp(arguments) == asks)
    }

    @Test(
        "Options take two dashes: one or three is an unknown option, with the right spelling when there is one",
        arguments: [
            (["-lat", "1"], "unknown option -lat for 'poi nearby' (options take two dashes: --lat)"),
            (["---lat=1"], "unknown option ---lat=1 for 'poi nearby' (options take two dashes: --lat)"),
            (["-x"], "unknown option -x for 'poi nearby'"),
            (["--lat", "1", "-json"], "unknown option -json for 'poi nearby' (options take two dashes: --json)"),
        ]
    )
    func dashes(arguments: [String], message: String) {
        #expect(throws: Self.command.usageError(message)) { try Self.command.parse(arguments) }
    }

    @Test("Options take the next argument or an = value, negative numbers included; flags take none")
    func parsing() throws {
        let parsed = try Self.command.parse(["--lat", "37.3", "--limit=-2", "--json", "extra", "--", "--lat"])
        #expect(parsed.values == ["lat": "37.3", "limit": "-2"])
        #expect(parsed.contains(Self.json))
        #expect(parsed.positional == ["extra", "--lat"])
        #expect(try Self.command.parse(["--lat", "-121.8893"]).value(Self.latitude) == "-121.8893")
        #expect(try Self.command.parse(["-121.8893"]).positional == ["-121.8893"])
    }

    @Test(
        "Usage mistakes are one message that points at the command's help",
        arguments: [
            (["--colour"], "unknown option --colour for 'poi nearby' (see 'poi help nearby')"),
            (["--lat"], "--lat needs a value (see 'poi help nearby')"),
            (["--lat", "1", "--lat", "2"], "--lat is given twice (see 'poi help nearby')"),
            (["--lat", "1", "--lat=2"], "--lat is given twice (see 'poi help nearby')"),
            (["--lat=1", "--lat=2"], "--lat is given twice (see 'poi help nearby')"),
            (["--lat=1", "--lat", "2"], "--lat is given twice (see 'poi help nearby')"),
            (["--json=yes"], "--json takes no value (see 'poi help nearby')"),
            (["extra"], "unexpected argument 'extra' (see 'poi help nearby')"),
        ]
    )
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: CommandLineError(.usage, message)) {
            try Self.command.parse(arguments).expectNoPositional()
        }
    }

    @Test("A program of its own points at its own --help")
    func programHelp() {
        let program = CommandDescription(name: "poi-server", helpCommand: "poi-server --help", abstract: "serves.")
        #expect(program.usageError("bad").message == "bad (see 'poi-server --help')")
    }

    @Test("Values are checked with the option's name in the message")
    func typedValues() throws {
        let parsed = try Self.command.parse(["--lat", "north", "--limit", "0", "--timeout", "-1"])
        #expect(throws: Self.command.usageError("--lat must be a number, not 'north'")) {
            try parsed.double(Self.latitude)
        }
        #expect(throws: Self.command.usageError("--limit must be a whole number of at least 1, not '0'")) {
            try parsed.integer(Self.limit, minimum: 1)
        }
        #expect(throws: Self.command.usageError(Self.secondsMessage("-1"))) {
            try parsed.seconds(Self.timeout)
        }
        #expect(try Self.command.parse(["--timeout", "0.5"]).seconds(Self.timeout) == 0.5)
        #expect(try Self.command.parse([]).seconds(Self.timeout) == nil)
    }

    /// The usage error of a number of seconds out of range, before the pointer to the help.
    static func secondsMessage(_ text: String) -> String {
        "--timeout must be a number of seconds more than 0 and at most 86400 (a day), not '\(text)'"
    }

    // A wait that never ends is a mistake, and the programs cannot make one of them: URLSession crashes on a
    // timeout of 1e300 seconds, and a Duration or a count of milliseconds overflows.
    @Test(
        "A number of seconds is more than 0 and at most a day: NaN, infinities and longer waits are usage errors",
        arguments: ["0", "-1", "nan", "inf", "-inf", "infinity", "86400.00000000001", "86401", "1e300"]
    )
    func secondsOutOfRange(text: String) throws {
        let parsed = try Self.command.parse(["--timeout", text])
        #expect(throws: Self.command.usageError(Self.secondsMessage(text))) { try parsed.seconds(Self.timeout) }
    }

    @Test("A day to the second is the longest number of seconds, and any number more than 0 the shortest")
    func secondsInRange() throws {
        #expect(try Self.command.parse(["--timeout", "86400"]).seconds(Self.timeout) == 86_400)
        #expect(try Self.command.parse(["--timeout=86399.999"]).seconds(Self.timeout) == 86_399.999)
        #expect(try Self.command.parse(["--timeout", "5e-324"]).seconds(Self.timeout) == .leastNonzeroMagnitude)
    }

    @Test(
        "A default in seconds is written as a person writes it",
        arguments: [(10, "10"), (0.5, "0.5"), (1e15, "1000000000000000"), (1e20, "1e+20")])
    func secondsDefault(seconds: Double, text: String) {
        #expect(Option.seconds("t", "wait", default: seconds).defaultValue == text)
    }

    @Test("The usage line and the help come from the declarations, defaults included")
    func help() {
        #expect(Self.command.usage == "poi nearby [--lat DEGREES] [--limit N] [--json] [--timeout SECONDS]")
        #expect(
            Self.command.help == """
                poi nearby: lists places.

                Usage: poi nearby [--lat DEGREES] [--limit N] [--json] [--timeout SECONDS]

                Options:
                  --lat DEGREES      latitude
                  --limit N          at most N (default all)
                  --json             as JSON
                  --timeout SECONDS  how long to wait, at most 86400 (default 10)

                Without a server, one starts in-process.

                Environment:
                  POI_SERVER_URL  the server

                Examples:
                  poi nearby --lat 1
                  poi nearby --json

                Exit status:
                  0   done
                  64  the command line is wrong
                  75  the server did not answer in time
                """)
    }

    @Test("Exit statuses are distinct, and follow sysexits.h in its range or are the package's own above it")
    func exitStatuses() {
        // The table the docs and the help print: a changed number breaks every script that reads it.
        #expect(
            ExitCode.allCases.map(\.rawValue) == [0, 64, 65, 66, 69, 71, 75, 76, 80, 81],
            "docs/appendix-programs.md lists these numbers")
        #expect(Set(ExitCode.allCases.map(\.rawValue)).count == ExitCode.allCases.count)
        for code in ExitCode.allCases where code != .success {
            #expect((64...78).contains(code.rawValue) == (code.sysexits != nil), "\(code)")
        }
    }
}
