import Foundation
import POIDomain
import POINetworking
import Synchronization
import Testing

@testable import POIApp

/// The CLI's own logic: the argument parser, the mapping of failures to exit statuses, and the text output.
@Suite("poi command line")
struct CommandLineTests {
    static func parse(_ arguments: [String]) throws(CommandLineError) -> ParsedArguments {
        try ParsedArguments.parse(
            arguments, command: "nearby", valueOptions: ["lat", "long", "limit"], flags: ["json"])
    }

    @Test("Options take the next argument or an = value, negative numbers included; flags take none")
    func parsing() throws {
        let parsed = try Self.parse(["--lat", "37.3", "--long=-121.9", "--json", "extra", "--", "--lat"])
        #expect(parsed.values == ["lat": "37.3", "long": "-121.9"])
        #expect(parsed.flags == ["json"])
        #expect(parsed.positional == ["extra", "--lat"])
        #expect(try Self.parse(["--long", "-121.8893"]).values["long"] == "-121.8893")
        #expect(try Self.parse(["-121.8893"]).positional == ["-121.8893"])
    }

    @Test(
        "Usage mistakes are one message that points at the help",
        arguments: [
            (["--colour"], "unknown option --colour for 'poi nearby' (see 'poi help nearby')"),
            (["--lat"], "--lat needs a value (see 'poi help nearby')"),
            (["--lat", "1", "--lat", "2"], "--lat is given twice (see 'poi help nearby')"),
            (["--json=yes"], "--json takes no value (see 'poi help nearby')"),
        ]
    )
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: CommandLineError(.usage, message)) { try Self.parse(arguments) }
    }

    @Test("Numbers are checked with the option's name in the message")
    func numbers() throws {
        let parsed = try Self.parse(["--lat", "north", "--limit", "0"])
        #expect(throws: CommandLineError.usage("--lat must be a number, not 'north'", command: "nearby")) {
            try parsed.double("lat", command: "nearby")
        }
        #expect(
            throws: CommandLineError.usage("--limit must be a whole number of at least 1, not '0'", command: "nearby")
        ) {
            try parsed.integer("limit", minimum: 1, command: "nearby")
        }
    }

    @Test(
        "Each kind of failure has its exit status",
        arguments: [
            (APIError.unacceptableStatusCode(503, body: Data()), ExitCode.httpError),
            (APIError.malformedResponse(reason: "x"), .malformedResponse),
            (URLError(.timedOut), .timeout),
            (URLError(.cannotConnectToHost), .serverUnreachable),
            (URLError(.networkConnectionLost), .serverUnreachable),
        ] as [(any Error, ExitCode)]
    )
    func exitStatuses(error: any Error, code: ExitCode) {
        let server = URL(string: "http://127.0.0.1:8080")!
        #expect(NearbyCommand.commandLineError(for: error, server: server, timeout: 2).code == code)
    }

    /// Runs `poi` in process; returns its exit status and what it wrote, standard error lines prefixed "err: ".
    @MainActor
    static func run(_ arguments: [String]) async -> (ExitCode, [String]) {
        let lines = Mutex<[String]>([])
        let commandLine = POICommandLine(
            environment: [:],
            output: { text in lines.withLock { $0.append(text) } },
            errorOutput: { text in lines.withLock { $0.append("err: \(text)") } }
        )
        let status = await commandLine.run(arguments)
        return (status, lines.withLock { $0 })
    }

    @Test(
        "--version takes nothing after it, --help at most a command, as help does",
        arguments: [
            (["--version", "extra"], "err: poi: unexpected argument 'extra' after --version (see 'poi --help')"),
            (["--help", "nearby", "featured"], "err: poi: 'poi --help' takes at most one command (see 'poi --help')"),
            (["-h", "-v"], "err: poi: no command named '-v' (see 'poi --help')"),
        ]
    )
    func topLevelFlagsCheckTheirArguments(arguments: [String], message: String) async {
        let (status, lines) = await Self.run(arguments)
        #expect(status == .usage)
        #expect(lines == [message])
    }

    @Test("poi --help nearby and poi -h featured show the command's help, as poi help does")
    func helpFlagWithACommand() async {
        #expect(await Self.run(["--help", "nearby"]) == (.success, [POICommandLine.help("nearby")!]))
        #expect(await Self.run(["-h", "featured"]) == (.success, [POICommandLine.help("featured")!]))
    }

    @Test("Exit statuses are distinct")
    func distinctStatuses() {
        #expect(Set(ExitCode.allCases.map(\.rawValue)).count == ExitCode.allCases.count)
    }

    @Test("The text report aligns distances and says when there are no places")
    func textReport() {
        let position = Coordinate(latitude: 37.3293, longitude: -121.8893)
        let list = PointsOfInterestListModel(
            notificationCenter: NotificationCenter(),
            places: [
                PointOfInterest(name: "Far", coordinate: Coordinate(latitude: 37.40, longitude: -121.89)),
                PointOfInterest(
                    name: "Near", coordinate: Coordinate(latitude: 37.33, longitude: -121.8893), category: .park),
            ],
            position: position
        )
        #expect(
            NearbyReport(position: position, rows: list.rows).text == """
                Places near 37.3293, -121.8893, nearest first:
                    80 m  Near  (park)
                  7.9 km  Far
                """)
        #expect(NearbyReport(position: position, rows: []).text.hasSuffix("(no places)"))
    }

    @Test("The --server URL must be http or https with a host")
    func serverURL() throws {
        #expect(try NearbyCommand.serverURL("http://127.0.0.1:8080")?.port == 8080)
        #expect(try NearbyCommand.serverURL(nil) == nil)
        for bad in ["ftp://x", "127.0.0.1:8080", "http://", "not a url"] {
            #expect(throws: CommandLineError.self) { try NearbyCommand.serverURL(bad) }
        }
    }

    @Test("poi-server's options become its configuration, and bad ones say so")
    func serverOptions() throws {
        let configuration = try ServerCommand.configuration(["--port", "0", "--fault", "slow", "--slow-ms", "50"])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.routes.fault == .slow)
        #expect(configuration.routes.slowDelay == .milliseconds(50))
        #expect(throws: CommandLineError.self) { try ServerCommand.configuration(["--port", "70000"]) }
        #expect(throws: CommandLineError.self) { try ServerCommand.configuration(["--fault", "fire"]) }
        #expect(throws: CommandLineError.self) {
            try ServerCommand.configuration(["--data", "/nonexistent/places.json"])
        }
    }

    @Test("A --data file that is not an array of places says where it is wrong")
    func serverDataErrors() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString).json")
        try Data(#"[{"name": "Café"}, {"name": 42}]"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = #expect(throws: CommandLineError.self) { try ServerCommand.configuration(["--data", file.path]) }
        #expect(error?.code == .usage)
        #expect(
            error?.message.hasPrefix(
                "--data: \(file.path) is not a JSON array of places: expected a string at [1].name") == true)
    }
}
