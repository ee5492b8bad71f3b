import Foundation
import POILock
import POITestSupport
import PortableTestSupport
import Testing

/// `poi`'s help, version, bad input and `featured`, as a user sees them; the help and the launch shortcut also in
/// process, to hold the lower tiers' way of running `poi` to the program's.
@Suite("poi command line, end to end", .timeLimit(.minutes(1)))
struct POIEndToEndTests {
    /// `poi` as the user runs it: the built executable, launched.
    static let poi = ProgramUnderTest.poi(.launched)

    /// One body, two ways (`ProgramUnderTest.Mode`): the launched case is the test of the program as it ships; the
    /// in-process case, the way the lower tiers run `poi`, must pass the same body, or those tiers test something
    /// other than what ships.
    @Test(
        "--help, help nearby and --version answer on stdout with status 0",
        arguments: ProgramUnderTest.Mode.allCases)
    func help(mode: ProgramUnderTest.Mode) async throws {
        let poi = ProgramUnderTest.poi(mode)
        let help = try await poi.run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("Usage:"))
        #expect(help.standardOutput.contains("poi nearby [--lat DEGREES] [--long DEGREES]"))

        let nearby = try await poi.run(["help", "nearby"])
        #expect(nearby.status == 0)
        #expect(nearby.standardOutput.contains("--timeout SECONDS"))
        #expect(try await poi.run(["nearby", "--help"]).standardOutput == nearby.standardOutput)

        let version = try await poi.run(["--version"])
        #expect(version.standardOutput == "poi 1.0.0\n")
    }

    @Test(
        "Bad input never crashes: one line on stderr, and the status of its kind",
        arguments: [
            ([], 64, "no command given"),
            (["frobnicate"], 64, "no command named 'frobnicate'"),
            (["help", "frobnicate"], 64, "no command named 'frobnicate'"),
            (["nearby", "--lat", "37.3"], 64, "--lat and --long go together"),
            (["nearby", "--lat"], 64, "--lat needs a value"),
            (["nearby", "--lat", "north", "--long", "1"], 64, "--lat must be a number, not 'north'"),
            (
                ["nearby", "--lat", "1", "--long", "2", "--limit", "0"], 64,
                "--limit must be a whole number of at least 1"
            ),
            (["nearby", "--lat", "1", "--long", "2", "--colour"], 64, "unknown option --colour for 'poi nearby'"),
            (
                ["nearby", "--lat", "1", "--long", "2", "--server", "ftp://x"], 64,
                "--server must be an http or https URL"
            ),
            (
                ["nearby", "--lat", "1", "--long", "2", "--timeout", "0"], 64,
                "--timeout must be a number of seconds more than 0"
            ),
            (["nearby", "--lat", "91", "--long", "0"], 65, "invalid coordinate: latitude 91.0 is outside -90...90"),
            (
                ["nearby", "--lat", "0", "--long", "-180.5"], 65,
                "invalid coordinate: longitude -180.5 is outside -180...180"
            ),
            (["featured", "--interval", "-1"], 64, "--interval must be a number of seconds more than 0"),
        ] as [([String], Int32, String)]
    )
    func badInput(arguments: [String], status: Int32, message: String) async throws {
        let result = try await Self.poi.run(arguments)
        #expect(result.status == status, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("poi: \(message)"), "\(result.standardError)")
    }

    /// Run both ways as `help(mode:)` is: the variable set and removed reaches the program alike in both.
    @Test(
        "The launch shortcut: IS_UNIT_TESTING=1 skips the tip on stderr, a launch without it shows the tip",
        arguments: ProgramUnderTest.Mode.allCases)
    func launchShortcut(mode: ProgramUnderTest.Mode) async throws {
        let poi = ProgramUnderTest.poi(mode)
        let arguments = ["featured", "--count", "0"]
        let testing = try await poi.run(arguments, environment: ["IS_UNIT_TESTING": "1"])
        let normal = try await poi.run(arguments, environment: ["IS_UNIT_TESTING": nil])
        #expect(testing.status == 0)
        #expect(normal.status == 0)
        #expect(testing.standardOutput == "Featured: San Jose McEnery Convention Center\n")
        #expect(normal.standardOutput == testing.standardOutput)
        #expect(testing.standardError.isEmpty)
        #expect(normal.standardError.hasPrefix("poi: tip: "), "\(normal.standardError)")

        // nearby launches the same way.
        let nearby = ["nearby", "--lat", "37.3293", "--long", "-121.8893", "--limit", "1"]
        let quiet = try await poi.run(nearby, environment: ["IS_UNIT_TESTING": "1"])
        let tipped = try await poi.run(nearby, environment: ["IS_UNIT_TESTING": nil])
        #expect(quiet.standardError.isEmpty, "\(quiet.standardError)")
        #expect(tipped.standardError.hasPrefix("poi: tip: "), "\(tipped.standardError)")
        #expect(tipped.standardOutput == quiet.standardOutput)
    }

    @Test("featured shows a place, then rotates on the real run loop")
    func featured() async throws {
        let result = try await Self.poi.run(["featured", "--interval", "0.02", "--count", "2"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput == """
                Featured: San Jose McEnery Convention Center
                Featured: Center for the Performing Arts
                Featured: The Tech Interactive

                """)
    }

    @Test("Without --count, featured goes on rotating until it is stopped")
    func featuredWithoutCount() async throws {
        final class Lines: Sendable {
            let count = Lock(0)
        }
        let lines = Lines()
        // Ready at the sixth place: past any small count a default could stand for; then it is stopped.
        let sixthPlace: @Sendable (String) -> Bool = { line in
            lines.count.withLock { count in
                count += line.hasPrefix("Featured: ") ? 1 : 0
                return count == 6
            }
        }
        let (stillRunning, _) = try await BuiltProduct.withRunningProcess(
            BuiltProduct.product("poi"), ["featured", "--interval", "0.01"], environment: ["IS_UNIT_TESTING": "1"],
            readyWhen: sixthPlace
        ) { process in
            kill(process.processIdentifier, 0) == 0
        }
        #expect(stillRunning)
        #expect(lines.count.withLock { $0 } == 6)
    }
}
