import Foundation
import POIApp
import POICommandLine
import POIDomain
import POILocation
import POINetworking
import POITestSupport
import PortableTestSupport
import Testing

@testable import POICommands

/// `poi` run in process, with no server: help, usage errors, the launch shortcut, the environment, exit statuses.
///
/// What needs a server runs in the end-to-end tier.
@Suite("poi, in process")
struct POICommandTests {
    /// `poi` run in process, as the tiers below the end-to-end one run it (`POIEndToEndTests` holds the two ways to
    /// the same test bodies).
    static let poi = ProgramUnderTest.poi(.inProcess)

    @Test("poi's help lists every command, help and --version among them")
    func commandsListed() throws {
        let lines = try #require(POICommand.help(nil)).split(separator: "\n").map(String.init)
        #expect(lines.contains("  poi help [COMMAND]    (also: poi --help [COMMAND])"))
        #expect(lines.contains("  poi --version"))
        #expect(lines.contains { $0.hasPrefix("  poi nearby") } && lines.contains { $0.hasPrefix("  poi featured") })
    }

    /// What a run that wrote `standardOutput` and nothing on standard error, with status 0, gives.
    static func succeeded(printing standardOutput: String) -> BuiltProduct.Result {
        BuiltProduct.Result(status: ExitCode.success.rawValue, standardOutput: standardOutput, standardError: "")
    }

    /// What a run that failed with `code`, wrote `message` on standard error as its one line and nothing else, gives.
    static func failed(_ code: ExitCode, saying message: String) -> BuiltProduct.Result {
        BuiltProduct.Result(status: code.rawValue, standardOutput: "", standardError: message + "\n")
    }

    @Test(
        "--version takes nothing after it, --help at most a command, as help does",
        arguments: [
            (["--version", "extra"], "poi: unexpected argument 'extra' after --version (see 'poi --help')"),
            (["--help", "nearby", "featured"], "poi: 'poi --help' takes at most one command (see 'poi --help')"),
            (["-h", "-v"], "poi: no command named '-v' (see 'poi --help')"),
        ]
    )
    func topLevelFlagsCheckTheirArguments(arguments: [String], message: String) async throws {
        #expect(try await Self.poi.run(arguments) == Self.failed(.usage, saying: message))
    }

    @Test("poi's help says where the places come from when no server is given")
    func helpSaysWhereThePlacesComeFrom() {
        let help = POICommand.help(nil) ?? ""
        #expect(
            help.split(separator: "\n").contains(
                "Without --server (or POI_SERVER_URL), poi nearby starts the package's server in-process on 127.0.0.1.")
        )
    }

    @Test("poi --help nearby and poi featured -h show the command's help, as poi help does")
    func helpFlagWithACommand() async throws {
        #expect(
            try await Self.poi.run(["--help", "nearby"])
                == Self.succeeded(printing: NearbyCommand.description.help + "\n"))
        #expect(
            try await Self.poi.run(["featured", "-h"])
                == Self.succeeded(printing: FeaturedCommand.description.help + "\n"))
        #expect(try await Self.poi.run(["--version"]) == Self.succeeded(printing: "poi \(PackageVersion.current)\n"))
    }

    @Test("The launch shortcut: a normal launch shows the tip on stderr, IS_UNIT_TESTING=1 skips it")
    func launchShortcut() async throws {
        let featured = "Featured: San Jose McEnery Convention Center\n"
        let normal = try await Self.poi.run(["featured", "--count", "0"], environment: ["IS_UNIT_TESTING": nil])
        #expect(
            normal == BuiltProduct.Result(status: 0, standardOutput: featured, standardError: POICommand.tip + "\n"))

        let testing = try await Self.poi.run(["featured", "--count", "0"], environment: ["IS_UNIT_TESTING": "1"])
        #expect(testing == Self.succeeded(printing: featured))
    }

    @Test(
        "A usage error stays the only line on stderr: the tip comes after the command line was read",
        arguments: [
            (
                ["featured", "--count", "-1"],
                "--count must be a whole number of at least 0, not '-1' (see 'poi help featured')"
            ),
            (
                ["nearby", "--lat", "1", "--long", "2", "--limit", "0"],
                "--limit must be a whole number of at least 1, not '0' (see 'poi help nearby')"
            ),
            // After --, --help is an argument, not a request for the help.
            (["nearby", "--", "--help"], "unexpected argument '--help' (see 'poi help nearby')"),
            // Where an option of this command takes a value, --help is that value: each command reads its own options.
            (["nearby", "--lat", "--help"], "--lat must be a number, not '--help' (see 'poi help nearby')"),
            (
                ["featured", "--count", "--help"],
                "--count must be a whole number of at least 0, not '--help' (see 'poi help featured')"
            ),
        ]
    )
    func usageErrorBeforeTheTip(arguments: [String], message: String) async throws {
        let result = try await Self.poi.run(arguments, environment: ["IS_UNIT_TESTING": nil])
        #expect(result == Self.failed(.usage, saying: "poi: \(message)"))
    }

    @Test(
        "Every variable the help lists changes what poi does: a bad value is named in the error",
        arguments: [
            ("POI_SERVER_URL", "ftp://x", "POI_SERVER_URL must be an http or https URL"),
            ("POI_GPSD_HOST", "", "POI_GPSD_HOST must name a host"),
            ("POI_GPSD_PORT", "http", "POI_GPSD_PORT must be a port number, 1...65535, not 'http'"),
            ("POI_GPSD_PORT", "0", "POI_GPSD_PORT must be a port number, 1...65535, not '0'"),
            ("POI_SYSTEM", "linux", "POI_SYSTEM: 'linux' is not a system whose sockets can be followed"),
        ]
    )
    func environment(variable: String, value: String, message: String) async throws {
        let result = try await Self.poi.run(["nearby"], environment: [variable: value])
        #expect(result.status == ExitCode.usage.rawValue)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("poi: \(message)"), "\(result.standardError)")
    }

    @Test("The help lists exactly the variables poi reads, and names only files that exist")
    func helpIsTrue() throws {
        let helps = ([nil] + POICommand.commands.map { String($0.name.dropFirst(4)) }).compactMap(POICommand.help)
        let text = helps.joined(separator: "\n")
        let named = Set(text.matches(of: /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/).map { String($0.output) })
        #expect(named == Set(POICommand.environmentVariables.map(\.name)))
        #expect(named == ["IS_UNIT_TESTING", "POI_SERVER_URL", "POI_GPSD_HOST", "POI_GPSD_PORT", "POI_SYSTEM"])

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        for match in text.matches(of: /\b(?:docs|scripts|Sources)\/[\w\/.-]+/) {
            let path = String(match.output).trimmingCharacters(in: CharacterSet(charactersIn: ".,)"))
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path)")
        }
    }

    /// The statuses each command promises in its help, written out: a list read back from the commands themselves
    /// could not notice one that went missing.
    @Test(
        "Each command's help promises the exit statuses it can end with, no fewer",
        arguments: [
            (["help", "nearby"], [0, 64, 65, 69, 71, 75, 76, 80, 81]),
            (["help", "featured"], [0, 64]),
            (["help"], [0, 64, 65, 69, 71, 75, 76, 80, 81]),
        ]
    )
    func promisedExitStatuses(arguments: [String], statuses: [Int32]) async throws {
        let result = try await Self.poi.run(arguments)
        #expect(result.status == ExitCode.success.rawValue)
        let help = result.standardOutput
        let listed = help.split(separator: "Exit status:\n").last?.split(separator: "\n").compactMap {
            Int32($0.split(separator: " ").first ?? "")
        }
        #expect(listed == statuses)
    }

    @Test(
        "An argument a command does not take is a usage error that names the first of them",
        arguments: [
            ["nearby", "--lat", "37.3", "--long", "-121.9", "north", "south"],
            ["featured", "north", "south"],
            ["--version", "north", "south"],
        ]
    )
    func extraArguments(arguments: [String]) async throws {
        let result = try await Self.poi.run(arguments)
        #expect(result.status == ExitCode.usage.rawValue)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("unexpected argument 'north'"))
    }

    @Test("poi's help lists the exit statuses of all its commands once each, in order")
    func exitStatusesInOrder() throws {
        let help = try #require(POICommand.help(nil))
        let statuses = help.split(separator: "Exit status:\n").last?.split(separator: "\n").compactMap {
            Int32($0.split(separator: " ").first ?? "")
        }
        let expected = Set(POICommand.commands.flatMap(\.exitCodes)).map(\.rawValue).sorted()
        #expect(statuses == expected)
    }

    @Test("The defaults the help shows are the ones the program uses")
    func defaults() {
        #expect(FeaturedCommand.interval.defaultValue == "10")
        #expect(FeaturedPlaceManager.rotationInterval == 10)
        #expect(NearbyCommand.timeout.defaultValue == "10")
        #expect(NearbyCommand.defaultTimeout == 10)
    }

    // poi crashed on `nearby --timeout 1e300` (URLSession) and `featured --interval 1e300` never ended.
    @Test(
        "A wait in seconds that is not more than 0 and at most a day is a usage error, in each command that takes one",
        arguments: ["inf", "nan", "-inf", "1e300", "86401"]
    )
    func secondsOutOfRange(text: String) {
        let message = "must be a number of seconds more than 0 and at most 86400 (a day), not '\(text)'"
        #expect(throws: NearbyCommand.description.usageError("--timeout \(message)")) {
            try NearbyCommand(environment: [:]).parse(["--lat", "1", "--long", "2", "--timeout", text])
        }
        #expect(throws: FeaturedCommand.description.usageError("--interval \(message)")) {
            try FeaturedCommand().parse(["--interval", text])
        }
    }

    @Test("A wait of a day is taken as it is, by each command that takes one")
    func secondsUpToADay() throws {
        #expect(
            try NearbyCommand(environment: [:]).parse(["--lat", "1", "--long", "2", "--timeout", "86400"]).timeout
                == 86_400)
        #expect(try FeaturedCommand().parse(["--interval", "86400"]).interval == 86_400)
    }

    @Test("--server wins over POI_SERVER_URL, which names the server when --server is not given")
    func serverPrecedence() throws {
        let position = ["--lat", "1", "--long", "2"]
        let withVariable = NearbyCommand(environment: ["POI_SERVER_URL": "http://a.example:8080"])
        #expect(
            try withVariable.parse(position + ["--server", "http://b.example:9090"]).serverURL
                == URL(string: "http://b.example:9090"))
        #expect(try withVariable.parse(position).serverURL == URL(string: "http://a.example:8080"))
        // Neither: nil, for the server started in-process.
        #expect(try NearbyCommand(environment: [:]).parse(position).serverURL == nil)
        // --server given, the variable is not read: a stale one that is no URL does not stand in the way.
        let withBadVariable = NearbyCommand(environment: ["POI_SERVER_URL": "ftp://x"])
        #expect(
            try withBadVariable.parse(position + ["--server=http://b.example:9090"]).serverURL
                == URL(string: "http://b.example:9090"))
    }

    @Test("Without --timeout poi nearby waits 10 s; without POI_GPSD_HOST and POI_GPSD_PORT it asks 127.0.0.1:2947")
    func nearbyDefaults() throws {
        let nearby = NearbyCommand(environment: [:])
        #expect(try nearby.parse(["--lat", "1", "--long", "2"]).timeout == 10)
        #expect(try nearby.parse(["--lat", "1", "--long", "2", "--timeout", "2.5"]).timeout == 2.5)
        #expect(try nearby.parse([]).position == .gpsd(host: "127.0.0.1", port: 2947))
    }

    @Test("Without --interval poi featured rotates every 10 seconds, and without --count it does not stop")
    func featuredDefaults() throws {
        let (interval, count) = try FeaturedCommand().parse([])
        #expect(interval == 10)
        #expect(count == nil)
        #expect(try FeaturedCommand().parse(["--interval", "0.5", "--count", "0"]) == (0.5, 0))
    }

    @Test("When the server poi nearby starts in-process cannot listen, it ends with 71 and says why")
    @MainActor
    func inProcessServerCannotListen() async throws {
        struct NoAddress: Error, CustomStringConvertible {
            var description: String { "address already in use" }
        }
        let nearby = NearbyCommand(environment: [:], startServer: { throw NoAddress() })
        let request = try nearby.parse(["--lat", "37.3293", "--long", "-121.8893"])
        #expect(request.serverURL == nil)
        await #expect(
            throws: CommandLineError(.cannotListen, "cannot start the built-in server: address already in use")
        ) {
            try await nearby.run(request) { _ in }
        }
    }

    @Test("--lat/--long give a fixed position, none asks gpsd, one alone is a usage error")
    func positionSource() throws {
        let nearby = NearbyCommand(environment: ["POI_GPSD_HOST": "localhost", "POI_GPSD_PORT": "2948"])
        #expect(
            try nearby.parse(["--lat", "1", "--long", "2"]).position
                == .given(Coordinate(latitude: 1, longitude: 2)))
        #expect(try nearby.parse([]).position == .gpsd(host: "localhost", port: 2948))
        let portOne = NearbyCommand(environment: ["POI_GPSD_PORT": "1"])
        #expect(try portOne.parse([]).position == .gpsd(host: "127.0.0.1", port: 1))
        #expect(throws: NearbyCommand.description.usageError("--lat and --long go together")) {
            try nearby.parse(["--long", "2"])
        }
    }

    @Test("An invalid coordinate goes through the location provider, and ends with its own status")
    func invalidCoordinate() async {
        await #expect(throws: CommandLineError(.invalidInput, "invalid coordinate: latitude 91.0 is outside -90...90"))
        {
            try await NearbyCommand.locate(with: FixedLocationFetcher(position: Coordinate(latitude: 91, longitude: 0)))
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

    @Test(
        "A server not reached asks whether it runs; one reached whose exchange broke off says so instead",
        arguments: [
            (URLError(.cannotConnectToHost), "cannot reach the server at http://127.0.0.1:8080 ("),
            (URLError(.cannotFindHost), "cannot reach the server at http://127.0.0.1:8080 ("),
            (
                URLError(.networkConnectionLost),
                "the server at http://127.0.0.1:8080 closed the connection without answering"
            ),
            (URLError(.unknown), "the connection to the server at http://127.0.0.1:8080 failed ("),
        ] as [(URLError, String)]
    )
    func unreachableMessages(error: URLError, message: String) {
        let server = URL(string: "http://127.0.0.1:8080")!
        let failure = NearbyCommand.commandLineError(for: error, server: server, timeout: 2)
        #expect(failure.code == .serverUnreachable)
        #expect(failure.message.hasPrefix(message), "\(failure.message)")
        #expect(
            failure.message.hasSuffix("is it running? check --server or POI_SERVER_URL") == message.hasPrefix("cannot"))
    }

    @Test("The text report aligns distances and says when there are no places")
    func textReport() {
        let position = Coordinate(latitude: 37.3293, longitude: -121.8893)
        let places = [
            PointOfInterest(name: "Far", coordinate: Coordinate(latitude: 37.40, longitude: -121.89)),
            PointOfInterest(
                name: "Near", coordinate: Coordinate(latitude: 37.33, longitude: -121.8893), category: .park),
        ]
        #expect(
            NearbyReport(position: position, rows: places.nearestFirst(from: position)).text == """
                Places near 37.3293, -121.8893, nearest first:
                    80 m  Near  (park)
                  7.9 km  Far
                """)
        #expect(NearbyReport(position: position, rows: []).text.hasSuffix("(no places)"))
    }

    @Test("The server URL must be http or https with a host, and the message names where it came from")
    func serverURL() throws {
        #expect(try NearbyCommand.serverURL("http://127.0.0.1:8080", from: "--server").port == 8080)
        for bad in ["ftp://x", "127.0.0.1:8080", "http://", "not a url"] {
            #expect(
                throws: NearbyCommand.description.usageError(
                    "--server must be an http or https URL such as http://127.0.0.1:8080, not '\(bad)'")
            ) {
                try NearbyCommand.serverURL(bad, from: "--server")
            }
        }
    }
}
