import Foundation
import POICommandLine
import POIServer
import PortableTestSupport
import Testing

@testable import POIServerCommand

/// poi-server's command line: options into a configuration, and the exit statuses of bad input.
@Suite("poi-server's command line")
struct ServerCommandTests {
    @Test("poi-server's options become its configuration, and bad ones say so")
    func options() throws {
        let configuration = try ServerCommand.configuration([
            "--port", "0", "--fault", "slow", "--slow-ms", "50", "--idle-timeout", "0.25",
        ])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.routes.fault == .slow)
        #expect(configuration.routes.slowDelay == .milliseconds(50))
        #expect(configuration.idleTimeout == .milliseconds(250))
        for bad in [["--port", "70000"], ["--fault", "fire"], ["--slow-ms", "-1"], ["--idle-timeout", "0"], ["x"]] {
            #expect(throws: CommandLineError.self) { try ServerCommand.configuration(bad) }
        }
    }

    @Test("--host is the address the server binds, an IPv6 one included")
    func host() throws {
        #expect(try ServerCommand.configuration(["--host", "::1"]).host == "::1")
        #expect(try ServerCommand.configuration(["--host=0.0.0.0"]).host == "0.0.0.0")
    }

    // poi-server crashed on `--idle-timeout 1e300`, turning it into a count of milliseconds.
    @Test(
        "--idle-timeout that is not more than 0 and at most a day is a usage error",
        arguments: ["inf", "nan", "-inf", "1e300", "86401"]
    )
    func idleTimeoutOutOfRange(text: String) {
        let message = "--idle-timeout must be a number of seconds more than 0 and at most 86400 (a day), not '\(text)'"
        #expect(throws: ServerCommand.description.usageError(message)) {
            try ServerCommand.configuration(["--idle-timeout", text])
        }
    }

    @Test("--idle-timeout of a day gives clients a day")
    func idleTimeoutOfADay() throws {
        #expect(try ServerCommand.configuration(["--idle-timeout", "86400"]).idleTimeout == .seconds(86_400))
    }

    @Test("The help shows the defaults of the server's own configuration")
    func helpDefaults() {
        let defaults = StubServer.Configuration()
        #expect(ServerCommand.help.contains("--host ADDRESS"))
        #expect(ServerCommand.host.defaultValue == defaults.host)
        #expect(ServerCommand.idleTimeout.defaultValue == "5")
        #expect(defaults.idleTimeout == .seconds(5))
        #expect(ServerCommand.slowDelay.defaultValue == "2000")
        #expect(defaults.routes.slowDelay == .seconds(2))
    }

    @Test("The help names --version and --help, both endpoints and every parameter of /locations")
    func helpNamesEndpointsAndFlags() {
        let lines = ServerCommand.help.split(separator: "\n").map(String.init)
        #expect(lines.contains("Also: poi-server --version, poi-server --help"))
        #expect(
            lines.contains(
                "Endpoints: GET /locations?lat=..&long=..[&radius=METRES][&limit=N][&fault=NAME], GET /health"))
    }

    @Test("The help shows both examples, each on a line of its own")
    func helpExamples() {
        let lines = ServerCommand.help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("poi-server --port 8080"))
        #expect(lines.contains("poi-server --fault slow --slow-ms 500"))
    }

    @Test("poi-server's help promises the exit statuses it can end with, no fewer")
    func promisedExitStatuses() {
        let listed = ServerCommand.help.split(separator: "Exit status:\n").last?.split(separator: "\n").compactMap {
            Int32($0.split(separator: " ").first ?? "")
        }
        #expect(listed == [0, 64, 65, 66, 71])
    }

    @Test("The server's documented limits by default: 64 connections at once, 1 MiB discarded after an early answer")
    func documentedLimits() {
        let defaults = StubServer.Configuration()
        #expect(defaults.maximumConnections == 64)
        #expect(defaults.maximumLingeringSize == 1_048_576)
        #expect(defaults.lingeringTime == .seconds(2))
        #expect(defaults.maximumRequestSize == 16_384)
    }

    @Test("A --data file that cannot be read is status 66")
    func unreadableData() {
        let error = #expect(throws: CommandLineError.self) {
            try ServerCommand.configuration(["--data", "/nonexistent/places.json"])
        }
        #expect(error?.code == .unreadableInput)
        #expect(error?.message.hasPrefix("--data: cannot read /nonexistent/places.json") == true)
    }

    @Test("A --data file that is not an array of places is status 65, and says where it is wrong")
    func invalidData() throws {
        let file = TestScratch.file("places", suffix: "json")
        try Data(#"[{"name": "Café"}, {"name": 42}]"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = #expect(throws: CommandLineError.self) { try ServerCommand.configuration(["--data", file.path]) }
        #expect(error?.code == .invalidInput)
        #expect(
            error?.message.hasPrefix(
                "--data: \(file.path) is not a JSON array of places: expected a string at [1].name") == true)
    }
}
