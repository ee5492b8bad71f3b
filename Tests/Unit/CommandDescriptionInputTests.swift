import Foundation
import POICommandLine
import POIDomain
import POIServer
import POISockets
import PortableTestSupport
import Testing

@testable import POICommands
@testable import POIServerCommand

/// Every option and variable of `poi nearby`, `poi featured` and `poi-server`, by class and boundary: what the
/// parser makes of each kind of value, in both forms (`--name value`, `--name=value`), with the empty and the huge
/// value, with a value that holds the separator, and with the settings that touch the same value given together.
///
/// Each case is an `InputCase`, so docs/inputs.md lists it under its input (scripts/tool inputs). What a value does once
/// the command runs (a limit larger than the places, a fraction of a second waited for) is tested in the
/// integration and end-to-end tiers.
@Suite("The command lines' inputs, by class and boundary")
struct CommandDescriptionInputTests {
    /// What `poi nearby`'s parser makes of its arguments and environment.
    enum Nearby: Sendable {
        /// A fixed position, valid or not (the range is checked by the location provider, not the parser).
        case position(latitude: Double, longitude: Double, valid: Bool)
        /// The position asked of gpsd at host and port.
        case gpsd(host: String, port: UInt16)
        case limit(Int?)
        case timeout(Double)
        /// The server's URL as text, or `nil` for the server started in-process.
        case server(String?)
        case json(Bool)
        /// A usage error with this message (before the pointer to the help).
        case usage(String)
    }

    /// `poi nearby`'s arguments and environment, and what they must give.
    struct NearbyArguments: Sendable {
        var arguments: [String]
        var environment: [String: String] = [:]
        var expected: Nearby
    }

    static let position = ["--lat", "1", "--long", "2"]

    static func nearby(
        _ input: String, _ kind: InputCase<NearbyArguments>.Kind, _ label: String, _ arguments: [String],
        environment: [String: String] = [:], _ expected: Nearby
    ) -> InputCase<NearbyArguments> {
        InputCase(
            input, kind, label,
            value: NearbyArguments(arguments: arguments, environment: environment, expected: expected))
    }

    static let latitudeCases = [
        nearby(
            "poi nearby --lat", .valid, "37.3293", ["--lat", "37.3293", "--long", "2"],
            .position(latitude: 37.3293, longitude: 2, valid: true)),
        nearby(
            "poi nearby --lat", .valid, "the inline form --lat=37.3293", ["--lat=37.3293", "--long=2"],
            .position(latitude: 37.3293, longitude: 2, valid: true)),
        nearby(
            "poi nearby --lat", .valid, "negative, given as the next argument", ["--lat", "-33.5", "--long", "2"],
            .position(latitude: -33.5, longitude: 2, valid: true)),
        nearby(
            "poi nearby --lat", .boundary, "90, the north pole", ["--lat", "90", "--long", "2"],
            .position(latitude: 90, longitude: 2, valid: true)),
        nearby(
            "poi nearby --lat", .boundary, "-90, the south pole", ["--lat", "-90", "--long", "2"],
            .position(latitude: -90, longitude: 2, valid: true)),
        nearby(
            "poi nearby --lat", .boundary, "90.000001, just past the pole", ["--lat", "90.000001", "--long", "2"],
            .position(latitude: 90.000001, longitude: 2, valid: false)),
        nearby(
            "poi nearby --lat", .boundary, "-90.000001", ["--lat", "-90.000001", "--long", "2"],
            .position(latitude: -90.000001, longitude: 2, valid: false)),
        nearby(
            "poi nearby --lat", .invalid, "a word", ["--lat", "north", "--long", "2"],
            .usage("--lat must be a number, not 'north'")),
        nearby(
            "poi nearby --lat", .invalid, "nan", ["--lat", "nan", "--long", "2"],
            .usage("--lat must be a number, not 'nan'")),
        nearby(
            "poi nearby --lat", .invalid, "a decimal comma", ["--lat", "37,3", "--long", "2"],
            .usage("--lat must be a number, not '37,3'")),
        nearby(
            "poi nearby --lat", .empty, "--lat=", ["--lat=", "--long", "2"], .usage("--lat must be a number, not ''")),
        nearby(
            "poi nearby --lat", .empty, "--lat with nothing after it", ["--long", "2", "--lat"],
            .usage("--lat needs a value")),
        nearby(
            "poi nearby --lat", .huge, "1e308, finite and out of range", ["--lat", "1e308", "--long", "2"],
            .position(latitude: 1e308, longitude: 2, valid: false)),
        nearby(
            "poi nearby --lat", .huge, "1e309, past a Double: out of range, as 1e308",
            ["--lat", "1e309", "--long", "2"],
            .position(latitude: .infinity, longitude: 2, valid: false)),
        nearby(
            "poi nearby --lat", .huge, "-1e400, past a Double below", ["--lat", "-1e400", "--long", "2"],
            .position(latitude: -.infinity, longitude: 2, valid: false)),
        nearby(
            "poi nearby --lat", .invalid, "hexadecimal, 0x10", ["--lat", "0x10", "--long", "2"],
            .usage("--lat must be a number, not '0x10'")),
        nearby(
            "poi nearby --lat", .boundary, "-0, negative zero: the equator", ["--lat", "-0", "--long", "2"],
            .position(latitude: -0.0, longitude: 2, valid: true)),
        nearby(
            "poi nearby --lat", .separator, "--lat=1=2", ["--lat=1=2", "--long", "2"],
            .usage("--lat must be a number, not '1=2'")),
        nearby("poi nearby --lat", .pair, "without --long", ["--lat", "1"], .usage("--lat and --long go together")),
        nearby(
            "poi nearby --lat", .pair, "after --long", ["--long", "2", "--lat", "1"],
            .position(latitude: 1, longitude: 2, valid: true)),
        nearby(
            "poi nearby --lat", .pair, "given twice", ["--lat", "1", "--long", "2", "--lat", "3"],
            .usage("--lat is given twice")),
    ]

    static let longitudeCases = [
        nearby(
            "poi nearby --long", .valid, "-121.8893", ["--lat", "1", "--long", "-121.8893"],
            .position(latitude: 1, longitude: -121.8893, valid: true)),
        nearby(
            "poi nearby --long", .valid, "the inline form --long=-121.8893", ["--lat", "1", "--long=-121.8893"],
            .position(latitude: 1, longitude: -121.8893, valid: true)),
        nearby(
            "poi nearby --long", .boundary, "180", ["--lat", "1", "--long", "180"],
            .position(latitude: 1, longitude: 180, valid: true)),
        nearby(
            "poi nearby --long", .boundary, "-180", ["--lat", "1", "--long", "-180"],
            .position(latitude: 1, longitude: -180, valid: true)),
        nearby(
            "poi nearby --long", .boundary, "180.000001", ["--lat", "1", "--long", "180.000001"],
            .position(latitude: 1, longitude: 180.000001, valid: false)),
        nearby(
            "poi nearby --long", .boundary, "-180.000001", ["--lat", "1", "--long", "-180.000001"],
            .position(latitude: 1, longitude: -180.000001, valid: false)),
        nearby(
            "poi nearby --long", .invalid, "a word", ["--lat", "1", "--long", "west"],
            .usage("--long must be a number, not 'west'")),
        nearby(
            "poi nearby --long", .invalid, "infinity", ["--lat", "1", "--long", "inf"],
            .usage("--long must be a number, not 'inf'")),
        nearby(
            "poi nearby --long", .empty, "--long=", ["--lat", "1", "--long="], .usage("--long must be a number, not ''")
        ),
        nearby(
            "poi nearby --long", .huge, "-1e308", ["--lat", "1", "--long", "-1e308"],
            .position(latitude: 1, longitude: -1e308, valid: false)),
        nearby(
            "poi nearby --long", .separator, "--long=2=3", ["--lat", "1", "--long=2=3"],
            .usage("--long must be a number, not '2=3'")),
        nearby("poi nearby --long", .pair, "without --lat", ["--long", "2"], .usage("--lat and --long go together")),
    ]

    static let limitCases = [
        nearby("poi nearby --limit", .valid, "3", position + ["--limit", "3"], .limit(3)),
        nearby("poi nearby --limit", .valid, "the inline form --limit=3", position + ["--limit=3"], .limit(3)),
        nearby("poi nearby --limit", .valid, "absent: all", position, .limit(nil)),
        nearby("poi nearby --limit", .boundary, "1, the least", position + ["--limit", "1"], .limit(1)),
        nearby(
            "poi nearby --limit", .boundary, "0", position + ["--limit", "0"],
            .usage("--limit must be a whole number of at least 1, not '0'")),
        nearby(
            "poi nearby --limit", .invalid, "negative", position + ["--limit", "-2"],
            .usage("--limit must be a whole number of at least 1, not '-2'")),
        nearby(
            "poi nearby --limit", .invalid, "a fraction, 2.5", position + ["--limit", "2.5"],
            .usage("--limit must be a whole number of at least 1, not '2.5'")),
        nearby(
            "poi nearby --limit", .invalid, "a whole number written 3.0", position + ["--limit", "3.0"],
            .usage("--limit must be a whole number of at least 1, not '3.0'")),
        nearby(
            "poi nearby --limit", .empty, "--limit=", position + ["--limit="],
            .usage("--limit must be a whole number of at least 1, not ''")),
        nearby(
            "poi nearby --limit", .boundary, "Int.max", position + ["--limit", "9223372036854775807"], .limit(Int.max)),
        nearby(
            "poi nearby --limit", .huge, "2^63, past Int.max: read as Int.max, all",
            position + ["--limit", "9223372036854775808"], .limit(Int.max)),
        nearby(
            "poi nearby --limit", .huge, "2^64: all", position + ["--limit", "18446744073709551616"], .limit(Int.max)),
        nearby(
            "poi nearby --limit", .huge, "27 digits: all", position + ["--limit=456529149269160342363045888"],
            .limit(Int.max)),
        nearby("poi nearby --limit", .valid, "+3, with its sign", position + ["--limit", "+3"], .limit(3)),
        nearby(
            "poi nearby --limit", .boundary, "-0, negative zero", position + ["--limit", "-0"],
            .usage("--limit must be a whole number of at least 1, not '-0'")),
        nearby(
            "poi nearby --limit", .invalid, "a whole number not in digits, 1e3", position + ["--limit", "1e3"],
            .usage("--limit must be a whole number of at least 1, not '1e3'")),
        nearby(
            "poi nearby --limit", .invalid, "negative past Int.min", position + ["--limit", "-9223372036854775809"],
            .usage("--limit must be a whole number of at least 1, not '-9223372036854775809'")),
        nearby(
            "poi nearby --limit", .separator, "--limit=3=4", position + ["--limit=3=4"],
            .usage("--limit must be a whole number of at least 1, not '3=4'")),
        nearby(
            "poi nearby --limit", .pair, "given twice, the second does not reset the first",
            position + ["--limit", "3", "--limit=5"], .usage("--limit is given twice")),
    ]

    static let timeoutCases = [
        nearby("poi nearby --timeout", .valid, "2.5", position + ["--timeout", "2.5"], .timeout(2.5)),
        nearby(
            "poi nearby --timeout", .valid, "a fraction under a second, --timeout=0.2", position + ["--timeout=0.2"],
            .timeout(0.2)),
        nearby("poi nearby --timeout", .valid, "absent: 10", position, .timeout(10)),
        nearby("poi nearby --timeout", .boundary, "86400, a day", position + ["--timeout", "86400"], .timeout(86_400)),
        nearby(
            "poi nearby --timeout", .boundary, "86400.001", position + ["--timeout", "86400.001"],
            .usage("--timeout must be a number of seconds more than 0 and at most 86400 (a day), not '86400.001'")),
        nearby(
            "poi nearby --timeout", .boundary, "0", position + ["--timeout", "0"],
            .usage("--timeout must be a number of seconds more than 0 and at most 86400 (a day), not '0'")),
        nearby(
            "poi nearby --timeout", .boundary, "0.001, just over 0", position + ["--timeout", "0.001"], .timeout(0.001)),
        nearby(
            "poi nearby --timeout", .invalid, "negative", position + ["--timeout", "-1"],
            .usage("--timeout must be a number of seconds more than 0 and at most 86400 (a day), not '-1'")),
        nearby(
            "poi nearby --timeout", .invalid, "with a unit, 5s", position + ["--timeout", "5s"],
            .usage("--timeout must be a number of seconds more than 0 and at most 86400 (a day), not '5s'")),
        nearby(
            "poi nearby --timeout", .empty, "--timeout=", position + ["--timeout="],
            .usage("--timeout must be a number of seconds more than 0 and at most 86400 (a day), not ''")),
        nearby(
            "poi nearby --timeout", .huge, "1e400", position + ["--timeout", "1e400"],
            .usage("--timeout must be a number of seconds more than 0 and at most 86400 (a day), not '1e400'")),
        nearby(
            "poi nearby --timeout", .boundary, "1e-400, more than 0 and under the least Double: the least",
            position + ["--timeout", "1e-400"], .timeout(.leastNonzeroMagnitude)),
        nearby(
            "poi nearby --timeout", .boundary, "-0, negative zero", position + ["--timeout", "-0"],
            .usage("--timeout must be a number of seconds more than 0 and at most 86400 (a day), not '-0'")),
        nearby(
            "poi nearby --timeout", .invalid, "hexadecimal, 0x10", position + ["--timeout", "0x10"],
            .usage("--timeout must be a number of seconds more than 0 and at most 86400 (a day), not '0x10'")),
        nearby(
            "poi nearby --timeout", .separator, "--timeout=1=2", position + ["--timeout=1=2"],
            .usage("--timeout must be a number of seconds more than 0 and at most 86400 (a day), not '1=2'")),
    ]

    static let serverCases = [
        nearby(
            "poi nearby --server", .valid, "http with a port", position + ["--server", "http://127.0.0.1:8080"],
            .server("http://127.0.0.1:8080")),
        nearby(
            "poi nearby --server", .valid, "https, the inline form", position + ["--server=https://places.example"],
            .server("https://places.example")),
        nearby(
            "poi nearby --server", .valid, "an upper-case scheme", position + ["--server", "HTTP://127.0.0.1:8080"],
            .server("HTTP://127.0.0.1:8080")),
        nearby(
            "poi nearby --server", .valid, "a trailing slash, kept", position + ["--server", "http://127.0.0.1:8080/"],
            .server("http://127.0.0.1:8080/")),
        nearby(
            "poi nearby --server", .separator, "--server=URL whose query holds '='",
            position + ["--server=http://h.example/?key=a=b"], .server("http://h.example/?key=a=b")),
        nearby(
            "poi nearby --server", .invalid, "ftp", position + ["--server", "ftp://h.example"],
            .usage("--server must be an http or https URL such as http://127.0.0.1:8080, not 'ftp://h.example'")),
        nearby(
            "poi nearby --server", .invalid, "no scheme", position + ["--server", "127.0.0.1:8080"],
            .usage("--server must be an http or https URL such as http://127.0.0.1:8080, not '127.0.0.1:8080'")),
        nearby(
            "poi nearby --server", .boundary, "a scheme and no host", position + ["--server", "http://"],
            .usage("--server must be an http or https URL such as http://127.0.0.1:8080, not 'http://'")),
        nearby(
            "poi nearby --server", .empty, "--server=", position + ["--server="],
            .usage("--server must be an http or https URL such as http://127.0.0.1:8080, not ''")),
        nearby(
            "poi nearby --server", .huge, "a 2,000-letter host",
            position + ["--server", "http://\(String(repeating: "a", count: 2000)).example"],
            .server("http://\(String(repeating: "a", count: 2000)).example")),
        nearby(
            "poi nearby --server", .pair, "over POI_SERVER_URL", position + ["--server", "http://b.example:9090"],
            environment: ["POI_SERVER_URL": "http://a.example:8080"], .server("http://b.example:9090")),
        nearby(
            "poi nearby --server", .pair, "over a POI_SERVER_URL that is no URL, which is not read",
            position + ["--server=http://b.example:9090"], environment: ["POI_SERVER_URL": "ftp://x"],
            .server("http://b.example:9090")),
        nearby(
            "poi nearby --server", .pair, "not a URL, with a good POI_SERVER_URL: the option's error",
            position + ["--server", "ftp://x"], environment: ["POI_SERVER_URL": "http://a.example:8080"],
            .usage("--server must be an http or https URL such as http://127.0.0.1:8080, not 'ftp://x'")),
    ]

    static let jsonCases = [
        nearby("poi nearby --json", .valid, "given", position + ["--json"], .json(true)),
        nearby("poi nearby --json", .valid, "absent", position, .json(false)),
        nearby(
            "poi nearby --json", .invalid, "with a value, --json=yes", position + ["--json=yes"],
            .usage("--json takes no value")),
        nearby("poi nearby --json", .empty, "--json=", position + ["--json="], .usage("--json takes no value")),
        nearby("poi nearby --json", .pair, "given twice", ["--json"] + position + ["--json"], .json(true)),
    ]

    static let environmentCases = [
        nearby(
            "poi nearby POI_SERVER_URL", .valid, "http URL, when --server is not given", position,
            environment: ["POI_SERVER_URL": "http://a.example:8080"], .server("http://a.example:8080")),
        nearby("poi nearby POI_SERVER_URL", .valid, "unset: the server started in-process", position, .server(nil)),
        nearby(
            "poi nearby POI_SERVER_URL", .invalid, "not http", position, environment: ["POI_SERVER_URL": "ftp://x"],
            .usage("POI_SERVER_URL must be an http or https URL such as http://127.0.0.1:8080, not 'ftp://x'")),
        nearby(
            "poi nearby POI_SERVER_URL", .empty, "set to nothing", position, environment: ["POI_SERVER_URL": ""],
            .usage("POI_SERVER_URL must be an http or https URL such as http://127.0.0.1:8080, not ''")),
        nearby(
            "poi nearby POI_SERVER_URL", .separator, "a query holding '&' and '='", position,
            environment: ["POI_SERVER_URL": "http://a.example/?x=1&y=2"], .server("http://a.example/?x=1&y=2")),
        nearby(
            "poi nearby POI_SERVER_URL", .pair, "under --server", position + ["--server", "http://b.example:9090"],
            environment: ["POI_SERVER_URL": "http://a.example:8080"], .server("http://b.example:9090")),
        nearby(
            "poi nearby POI_GPSD_HOST", .valid, "a name", [], environment: ["POI_GPSD_HOST": "localhost"],
            .gpsd(host: "localhost", port: 2947)),
        nearby("poi nearby POI_GPSD_HOST", .valid, "unset: 127.0.0.1", [], .gpsd(host: "127.0.0.1", port: 2947)),
        nearby(
            "poi nearby POI_GPSD_HOST", .empty, "set to nothing", [], environment: ["POI_GPSD_HOST": ""],
            .usage("POI_GPSD_HOST must name a host, not be empty")),
        nearby(
            "poi nearby POI_GPSD_HOST", .pair, "with POI_GPSD_PORT", [],
            environment: ["POI_GPSD_HOST": "gps.local", "POI_GPSD_PORT": "2948"], .gpsd(host: "gps.local", port: 2948)),
        nearby(
            "poi nearby POI_GPSD_HOST", .pair, "not read when --lat and --long are given", position,
            environment: ["POI_GPSD_HOST": ""], .position(latitude: 1, longitude: 2, valid: true)),
        nearby(
            "poi nearby POI_GPSD_PORT", .valid, "2948", [], environment: ["POI_GPSD_PORT": "2948"],
            .gpsd(host: "127.0.0.1", port: 2948)),
        nearby("poi nearby POI_GPSD_PORT", .valid, "unset: 2947", [], .gpsd(host: "127.0.0.1", port: 2947)),
        nearby(
            "poi nearby POI_GPSD_PORT", .boundary, "1, the least", [], environment: ["POI_GPSD_PORT": "1"],
            .gpsd(host: "127.0.0.1", port: 1)),
        nearby(
            "poi nearby POI_GPSD_PORT", .boundary, "65535, the most", [], environment: ["POI_GPSD_PORT": "65535"],
            .gpsd(host: "127.0.0.1", port: 65535)),
        nearby(
            "poi nearby POI_GPSD_PORT", .boundary, "0", [], environment: ["POI_GPSD_PORT": "0"],
            .usage("POI_GPSD_PORT must be a port number, 1...65535, not '0'")),
        nearby(
            "poi nearby POI_GPSD_PORT", .boundary, "65536", [], environment: ["POI_GPSD_PORT": "65536"],
            .usage("POI_GPSD_PORT must be a port number, 1...65535, not '65536'")),
        nearby(
            "poi nearby POI_GPSD_PORT", .invalid, "a fraction, 2947.5", [], environment: ["POI_GPSD_PORT": "2947.5"],
            .usage("POI_GPSD_PORT must be a port number, 1...65535, not '2947.5'")),
        nearby(
            "poi nearby POI_GPSD_PORT", .invalid, "negative", [], environment: ["POI_GPSD_PORT": "-1"],
            .usage("POI_GPSD_PORT must be a port number, 1...65535, not '-1'")),
        nearby(
            "poi nearby POI_GPSD_PORT", .empty, "set to nothing", [], environment: ["POI_GPSD_PORT": ""],
            .usage("POI_GPSD_PORT must be a port number, 1...65535, not ''")),
        nearby(
            "poi nearby POI_GPSD_PORT", .huge, "2^64", [], environment: ["POI_GPSD_PORT": "18446744073709551616"],
            .usage("POI_GPSD_PORT must be a port number, 1...65535, not '18446744073709551616'")),
        nearby(
            "poi nearby POI_GPSD_PORT", .huge, "20 digits", [], environment: ["POI_GPSD_PORT": "99999999999999999999"],
            .usage("POI_GPSD_PORT must be a port number, 1...65535, not '99999999999999999999'")),
        nearby(
            "poi nearby POI_GPSD_PORT", .separator, "host:port", [], environment: ["POI_GPSD_PORT": "127.0.0.1:2947"],
            .usage("POI_GPSD_PORT must be a port number, 1...65535, not '127.0.0.1:2947'")),
        nearby(
            "poi nearby POI_SYSTEM", .valid, "darwin", position, environment: ["POI_SYSTEM": "darwin"],
            .position(latitude: 1, longitude: 2, valid: true)),
        nearby(
            "poi nearby POI_SYSTEM", .valid, "unset: the system's own", position,
            .position(latitude: 1, longitude: 2, valid: true)),
        nearby(
            "poi nearby POI_SYSTEM", .empty, "set to nothing: the system's own", position,
            environment: ["POI_SYSTEM": ""], .position(latitude: 1, longitude: 2, valid: true)),
        nearby(
            "poi nearby POI_SYSTEM", .invalid, "another system, linux", position, environment: ["POI_SYSTEM": "linux"],
            .usage(SystemProfile.UnknownProfile(value: "linux").description)),
        nearby(
            "poi nearby POI_SYSTEM", .boundary, "Darwin, capitalised", position, environment: ["POI_SYSTEM": "Darwin"],
            .usage(SystemProfile.UnknownProfile(value: "Darwin").description)),
        nearby(
            "poi nearby POI_SYSTEM", .separator, "a list, darwin,linux", position,
            environment: ["POI_SYSTEM": "darwin,linux"],
            .usage(SystemProfile.UnknownProfile(value: "darwin,linux").description)),
        nearby(
            "poi nearby POI_SYSTEM", .huge, "10,000 characters", position,
            environment: ["POI_SYSTEM": String(repeating: "d", count: 10_000)],
            .usage(SystemProfile.UnknownProfile(value: String(repeating: "d", count: 10_000)).description)),
    ]

    @Test(
        "poi nearby: each option and variable, by class and boundary",
        arguments: latitudeCases + longitudeCases + limitCases + timeoutCases + serverCases + jsonCases
            + environmentCases
    )
    func nearbyInputs(_ input: InputCase<NearbyArguments>) throws {
        let nearby = NearbyCommand(environment: input.value.environment)
        let arguments = input.value.arguments
        switch input.value.expected {
        case .usage(let message):
            #expect(throws: NearbyCommand.description.usageError(message)) { try nearby.parse(arguments) }
        case .position(let latitude, let longitude, let valid):
            let request = try nearby.parse(arguments)
            let expected = Coordinate(latitude: latitude, longitude: longitude)
            #expect(request.position == .given(expected))
            #expect(expected.isValid == valid)
        case .gpsd(let host, let port):
            #expect(try nearby.parse(arguments).position == .gpsd(host: host, port: port))
        case .limit(let limit):
            #expect(try nearby.parse(arguments).limit == limit)
        case .timeout(let timeout):
            #expect(try nearby.parse(arguments).timeout == timeout)
        case .server(let url):
            #expect(try nearby.parse(arguments).serverURL?.absoluteString == url)
        case .json(let json):
            #expect(try nearby.parse(arguments).json == json)
        }
    }

    /// `poi featured`'s arguments, and the interval and count they must give, or the usage error.
    struct FeaturedArguments: Sendable {
        var arguments: [String]
        var expected: Result<Featured, CommandLineError>
    }

    struct Featured: Equatable, Sendable {
        var interval: Double
        var count: Int?
    }

    static func featured(
        _ input: String, _ kind: InputCase<FeaturedArguments>.Kind, _ label: String, _ arguments: [String],
        interval: Double = 10, count: Int? = nil
    ) -> InputCase<FeaturedArguments> {
        InputCase(
            input, kind, label,
            value: FeaturedArguments(
                arguments: arguments, expected: .success(Featured(interval: interval, count: count))))
    }

    static func featured(
        _ input: String, _ kind: InputCase<FeaturedArguments>.Kind, _ label: String, _ arguments: [String],
        usage message: String
    ) -> InputCase<FeaturedArguments> {
        InputCase(
            input, kind, label,
            value: FeaturedArguments(
                arguments: arguments, expected: .failure(FeaturedCommand.description.usageError(message))))
    }

    static let secondsMessage = "must be a number of seconds more than 0 and at most 86400 (a day), not"

    static let featuredCases = [
        featured("poi featured --interval", .valid, "2", ["--interval", "2"], interval: 2),
        featured(
            "poi featured --interval", .valid, "a fraction, the inline form --interval=0.5", ["--interval=0.5"],
            interval: 0.5),
        featured("poi featured --interval", .valid, "absent: 10", [], interval: 10),
        featured("poi featured --interval", .boundary, "86400, a day", ["--interval", "86400"], interval: 86_400),
        featured(
            "poi featured --interval", .boundary, "0", ["--interval", "0"], usage: "--interval \(secondsMessage) '0'"),
        featured(
            "poi featured --interval", .boundary, "86401", ["--interval", "86401"],
            usage: "--interval \(secondsMessage) '86401'"),
        featured(
            "poi featured --interval", .invalid, "negative", ["--interval", "-2"],
            usage: "--interval \(secondsMessage) '-2'"),
        featured(
            "poi featured --interval", .empty, "--interval=", ["--interval="], usage: "--interval \(secondsMessage) ''"),
        featured(
            "poi featured --interval", .huge, "1e400", ["--interval", "1e400"],
            usage: "--interval \(secondsMessage) '1e400'"),
        featured(
            "poi featured --interval", .boundary, "1e-400, more than 0: the least Double", ["--interval", "1e-400"],
            interval: .leastNonzeroMagnitude),
        featured(
            "poi featured --interval", .separator, "--interval=1=2", ["--interval=1=2"],
            usage: "--interval \(secondsMessage) '1=2'"),
        featured(
            "poi featured --interval", .pair, "with --count, in either order", ["--count", "3", "--interval", "2"],
            interval: 2, count: 3),
        featured("poi featured --count", .valid, "3", ["--count", "3"], count: 3),
        featured("poi featured --count", .valid, "absent: no end", [], count: nil),
        featured("poi featured --count", .boundary, "0, the first place only", ["--count=0"], count: 0),
        featured(
            "poi featured --count", .boundary, "-1", ["--count", "-1"],
            usage: "--count must be a whole number of at least 0, not '-1'"),
        featured(
            "poi featured --count", .invalid, "a fraction, 1.5", ["--count", "1.5"],
            usage: "--count must be a whole number of at least 0, not '1.5'"),
        featured(
            "poi featured --count", .empty, "--count=", ["--count="],
            usage: "--count must be a whole number of at least 0, not ''"),
        featured(
            "poi featured --count", .huge, "20 digits, past Int.max: read as Int.max, no end in a run",
            ["--count", "99999999999999999999"], count: .max),
        featured(
            "poi featured --count", .huge, "27 digits", ["--count=456529149269160342363045888"], count: .max),
        featured(
            "poi featured --count", .boundary, "-0, negative zero: 0", ["--count", "-0"], count: 0),
        featured(
            "poi featured --count", .separator, "--count=2=3", ["--count=2=3"],
            usage: "--count must be a whole number of at least 0, not '2=3'"),
        featured(
            "poi featured --count", .pair, "given twice", ["--count", "2", "--count", "3"],
            usage: "--count is given twice"),
    ]

    @Test("poi featured: each option, by class and boundary", arguments: featuredCases)
    func featuredInputs(_ input: InputCase<FeaturedArguments>) {
        let parsed = Result { () throws(CommandLineError) in
            let (interval, count) = try FeaturedCommand().parse(input.value.arguments)
            return Featured(interval: interval, count: count)
        }
        #expect(parsed == input.value.expected)
    }

    /// poi-server's arguments, and what the configuration must hold, or the usage error.
    struct ServerArguments: Sendable {
        var arguments: [String]
        var expected: Result<Server, CommandLineError>
    }

    /// The parts of `StubServer.Configuration` the options set.
    struct Server: Equatable, Sendable {
        var host = "127.0.0.1"
        var port: UInt16 = 0
        var fault: StubServerFault? = nil
        var slowDelay: Duration = .seconds(2)
        var idleTimeout: Duration = .seconds(5)
    }

    static func server(
        _ input: String, _ kind: InputCase<ServerArguments>.Kind, _ label: String, _ arguments: [String],
        _ expected: Server
    ) -> InputCase<ServerArguments> {
        InputCase(input, kind, label, value: ServerArguments(arguments: arguments, expected: .success(expected)))
    }

    static func server(
        _ input: String, _ kind: InputCase<ServerArguments>.Kind, _ label: String, _ arguments: [String],
        usage message: String
    ) -> InputCase<ServerArguments> {
        InputCase(
            input, kind, label,
            value: ServerArguments(
                arguments: arguments, expected: .failure(ServerCommand.description.usageError(message))))
    }

    static let serverOptionCases = [
        server("poi-server --host", .valid, "an IPv4 address", ["--host", "127.0.0.2"], Server(host: "127.0.0.2")),
        server("poi-server --host", .valid, "IPv6's ::1, the inline form", ["--host=::1"], Server(host: "::1")),
        server("poi-server --host", .valid, "absent: 127.0.0.1", [], Server()),
        server("poi-server --host", .empty, "--host with nothing after it", ["--host"], usage: "--host needs a value"),
        server("poi-server --port", .valid, "8080", ["--port", "8080"], Server(port: 8080)),
        server("poi-server --port", .boundary, "0, the system chooses", ["--port=0"], Server(port: 0)),
        server("poi-server --port", .boundary, "65535", ["--port", "65535"], Server(port: 65535)),
        server(
            "poi-server --port", .boundary, "65536", ["--port", "65536"], usage: "--port must be 0...65535, not '65536'"
        ),
        server(
            "poi-server --port", .invalid, "negative", ["--port", "-1"], usage: "--port must be 0...65535, not '-1'"),
        server(
            "poi-server --port", .invalid, "a fraction, 80.5", ["--port", "80.5"],
            usage: "--port must be 0...65535, not '80.5'"),
        server("poi-server --port", .empty, "--port=", ["--port="], usage: "--port must be 0...65535, not ''"),
        server(
            "poi-server --port", .huge, "20 digits", ["--port", "99999999999999999999"],
            usage: "--port must be 0...65535, not '99999999999999999999'"),
        server(
            "poi-server --port", .huge, "2^64", ["--port", "18446744073709551616"],
            usage: "--port must be 0...65535, not '18446744073709551616'"),
        server("poi-server --port", .boundary, "-0, negative zero: 0", ["--port", "-0"], Server(port: 0)),
        server(
            "poi-server --port", .separator, "--port=80=81", ["--port=80=81"],
            usage: "--port must be 0...65535, not '80=81'"),
        server("poi-server --fault", .valid, "slow", ["--fault", "slow"], Server(fault: .slow)),
        server("poi-server --fault", .valid, "500, the inline form", ["--fault=500"], Server(fault: .serverError)),
        server(
            "poi-server --fault", .invalid, "a name it does not have", ["--fault", "teapot"],
            usage: "--fault must be one of 500, not-json, slow, drop, stall, not 'teapot'"),
        server(
            "poi-server --fault", .invalid, "a name in capitals", ["--fault", "SLOW"],
            usage: "--fault must be one of 500, not-json, slow, drop, stall, not 'SLOW'"),
        server(
            "poi-server --fault", .empty, "--fault=", ["--fault="],
            usage: "--fault must be one of 500, not-json, slow, drop, stall, not ''"),
        server(
            "poi-server --fault", .separator, "two names, slow,drop", ["--fault", "slow,drop"],
            usage: "--fault must be one of 500, not-json, slow, drop, stall, not 'slow,drop'"),
        server("poi-server --slow-ms", .valid, "500", ["--slow-ms", "500"], Server(slowDelay: .milliseconds(500))),
        server("poi-server --slow-ms", .boundary, "0", ["--slow-ms=0"], Server(slowDelay: .zero)),
        server(
            "poi-server --slow-ms", .boundary, "-1", ["--slow-ms", "-1"],
            usage: "--slow-ms must be a whole number from 0 to 86400000, not '-1'"),
        server(
            "poi-server --slow-ms", .invalid, "a fraction, 1.5", ["--slow-ms", "1.5"],
            usage: "--slow-ms must be a whole number from 0 to 86400000, not '1.5'"),
        server(
            "poi-server --slow-ms", .empty, "--slow-ms=", ["--slow-ms="],
            usage: "--slow-ms must be a whole number from 0 to 86400000, not ''"),
        server(
            "poi-server --slow-ms", .boundary, "86400000, a day", ["--slow-ms", "86400000"],
            Server(slowDelay: .seconds(86_400))),
        server(
            "poi-server --slow-ms", .boundary, "86400001", ["--slow-ms", "86400001"],
            usage: "--slow-ms must be a whole number from 0 to 86400000, not '86400001'"),
        server(
            "poi-server --slow-ms", .huge, "past Int.max", ["--slow-ms", "9223372036854775808"],
            usage: "--slow-ms must be a whole number from 0 to 86400000, not '9223372036854775808'"),
        server(
            "poi-server --slow-ms", .huge, "27 digits", ["--slow-ms", "456529149269160342363045888"],
            usage: "--slow-ms must be a whole number from 0 to 86400000, not '456529149269160342363045888'"),
        server(
            "poi-server --slow-ms", .separator, "--slow-ms=5=6", ["--slow-ms=5=6"],
            usage: "--slow-ms must be a whole number from 0 to 86400000, not '5=6'"),
        server(
            "poi-server --slow-ms", .pair, "with --fault slow, either order", ["--slow-ms", "300", "--fault", "slow"],
            Server(fault: .slow, slowDelay: .milliseconds(300))),
        server(
            "poi-server --slow-ms", .pair, "with another fault, kept for a request's own slow",
            ["--fault", "drop", "--slow-ms", "300"], Server(fault: .drop, slowDelay: .milliseconds(300))),
        server("poi-server --idle-timeout", .valid, "2", ["--idle-timeout", "2"], Server(idleTimeout: .seconds(2))),
        server(
            "poi-server --idle-timeout", .valid, "a fraction, 0.25", ["--idle-timeout=0.25"],
            Server(idleTimeout: .milliseconds(250))),
        server(
            "poi-server --idle-timeout", .boundary, "0.0001, rounded up to 1 ms", ["--idle-timeout", "0.0001"],
            Server(idleTimeout: .milliseconds(1))),
        server(
            "poi-server --idle-timeout", .boundary, "86400", ["--idle-timeout", "86400"],
            Server(idleTimeout: .seconds(86_400))),
        server(
            "poi-server --idle-timeout", .boundary, "0", ["--idle-timeout", "0"],
            usage: "--idle-timeout \(secondsMessage) '0'"),
        server(
            "poi-server --idle-timeout", .invalid, "a word", ["--idle-timeout", "soon"],
            usage: "--idle-timeout \(secondsMessage) 'soon'"),
        server(
            "poi-server --idle-timeout", .empty, "--idle-timeout=", ["--idle-timeout="],
            usage: "--idle-timeout \(secondsMessage) ''"),
        server(
            "poi-server --idle-timeout", .huge, "1e400", ["--idle-timeout", "1e400"],
            usage: "--idle-timeout \(secondsMessage) '1e400'"),
        server(
            "poi-server --idle-timeout", .boundary, "1e-400, more than 0: rounded up to 1 ms",
            ["--idle-timeout", "1e-400"], Server(idleTimeout: .milliseconds(1))),
        server(
            "poi-server --idle-timeout", .separator, "--idle-timeout=1=2", ["--idle-timeout=1=2"],
            usage: "--idle-timeout \(secondsMessage) '1=2'"),
    ]

    /// poi-server's environment, and the usage error it must give (`nil`: none).
    struct ServerEnvironment: Sendable {
        var environment: [String: String]
        var refused: String?
    }

    static func serverEnvironment(
        _ kind: InputCase<ServerEnvironment>.Kind, _ label: String, _ value: String?, refused: Bool = true
    ) -> InputCase<ServerEnvironment> {
        InputCase(
            "poi-server POI_SYSTEM", kind, label,
            value: ServerEnvironment(
                environment: value.map { ["POI_SYSTEM": $0] } ?? [:],
                refused: refused ? SystemProfile.UnknownProfile(value: value ?? "").description : nil))
    }

    static let serverEnvironmentCases = [
        serverEnvironment(.valid, "darwin", "darwin", refused: false),
        serverEnvironment(.valid, "unset: the system's own", nil, refused: false),
        serverEnvironment(.empty, "set to nothing: the system's own", "", refused: false),
        serverEnvironment(.invalid, "another system, bsd", "bsd"),
        serverEnvironment(.boundary, "DARWIN, in capitals", "DARWIN"),
        serverEnvironment(.separator, "with a space, 'darwin '", "darwin "),
        serverEnvironment(.huge, "10,000 characters", String(repeating: "x", count: 10_000)),
    ]

    @Test("poi-server: its variable, by class and boundary", arguments: serverEnvironmentCases)
    func serverEnvironmentInputs(_ input: InputCase<ServerEnvironment>) {
        let checked = Result { () throws(CommandLineError) in
            try ServerCommand.checkEnvironment(input.value.environment)
        }
        if let refused = input.value.refused {
            #expect(throws: ServerCommand.description.usageError(refused)) { try checked.get() }
        } else {
            #expect(throws: Never.self) { try checked.get() }
        }
    }

    @Test("poi-server: each option, by class and boundary", arguments: serverOptionCases)
    func serverInputs(_ input: InputCase<ServerArguments>) {
        let configuration = Result { () throws(CommandLineError) in
            let configuration = try ServerCommand.configuration(input.value.arguments)
            return Server(
                host: configuration.host, port: configuration.port, fault: configuration.routes.fault,
                slowDelay: configuration.routes.slowDelay, idleTimeout: configuration.idleTimeout)
        }
        #expect(configuration == input.value.expected)
    }
}
