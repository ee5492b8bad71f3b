import Foundation
import POICommandLine
import POIDomain
import POIServer
import POITestSupport
import PortableTestSupport
import Testing

@testable import POICommands

/// What `poi nearby` prints for each class of --limit and each order the server lists its places in, run in
/// process against a server of its own over loopback (docs/inputs.md lists the cases).
@Suite("poi nearby's limit and order, by class and boundary, in process", .timeLimit(.minutes(1)))
struct NearbyCommandInputTests {
    static let here = Coordinate(latitude: 37.3293, longitude: -121.8893)
    static let near = PointOfInterest(name: "Near", coordinate: Coordinate(latitude: 37.3293, longitude: -121.8883))
    static let middle = PointOfInterest(name: "Middle", coordinate: Coordinate(latitude: 37.3293, longitude: -121.8873))
    static let far = PointOfInterest(name: "Far", coordinate: Coordinate(latitude: 37.3393, longitude: -121.8893))
    static let unplaced = PointOfInterest(name: "Unplaced")

    /// The places the server lists, in its order, the arguments after the position, and the names printed.
    struct Run: Sendable {
        var places: [PointOfInterest]
        var arguments: [String]
        var names: [String]
    }

    static func run(
        _ input: String, _ kind: InputCase<Run>.Kind, _ label: String, places: [PointOfInterest] = [far, middle, near],
        _ arguments: [String], _ names: [String]
    ) -> InputCase<Run> {
        InputCase(input, kind, label, value: Run(places: places, arguments: arguments, names: names))
    }

    static let cases = [
        run(
            "poi nearby --limit", .valid, "2 of 3 listed farthest first: the two nearest", ["--limit", "2"],
            ["Near", "Middle"]),
        run("poi nearby --limit", .boundary, "1: the nearest, listed last by the server", ["--limit=1"], ["Near"]),
        run(
            "poi nearby --limit", .boundary, "3, as many as the server lists", ["--limit", "3"],
            ["Near", "Middle", "Far"]),
        run(
            "poi nearby --limit", .boundary, "4, more than the server lists", ["--limit", "4"],
            ["Near", "Middle", "Far"]),
        run("poi nearby --limit", .huge, "Int.max", ["--limit", "9223372036854775807"], ["Near", "Middle", "Far"]),
        run("poi nearby --limit", .empty, "a server with no places", places: [], ["--limit", "2"], []),
        run(
            "poi nearby --limit", .empty, "not given, 3 listed farthest first: all, nearest first", [],
            ["Near", "Middle", "Far"]),
        run(
            "poi nearby --limit", .boundary, "2 of 3 listed nearest last but one: the two nearest",
            places: [middle, far, near], ["--limit", "2"], ["Near", "Middle"]),
        run(
            "the answer's body", .valid, "the nearer of two second in the list: printed first", places: [middle, near],
            [], ["Near", "Middle"]),
        run("the answer's body", .boundary, "one place", places: [far], [], ["Far"]),
        run(
            "the answer's body", .invalid, "a place without a position first: printed last", places: [unplaced, near],
            [], ["Near", "Unplaced"]),
        run("poi nearby --json", .pair, "after --limit 1", ["--limit", "1", "--json"], ["Near"]),
        run("poi nearby --json", .pair, "before --limit 1", ["--json", "--limit", "1"], ["Near"]),
    ]

    @Test("poi nearby --json: each class of limit and of the server's order", arguments: cases)
    @MainActor
    func nearby(_ input: InputCase<Run>) async throws {
        var configuration = StubServer.Configuration()
        configuration.routes.places = input.value.places
        // The server lists them in its own order, as the talk's server may: poi must sort before it cuts.
        configuration.routes.nearestFirst = false
        let server = try StubServer(configuration: configuration)
        defer { server.stop() }
        let arguments =
            ["nearby", "--server", server.url.absoluteString, "--lat", "37.3293", "--long", "-121.8893"]
            + input.value.arguments + (input.value.arguments.contains("--json") ? [] : ["--json"])
        let result = try await ProgramUnderTest.poi(.inProcess).run(arguments)
        #expect(result.status == ExitCode.success.rawValue, "\(result.standardError)")
        let report = try JSONDecoder().decode(NearbyReport.self, from: Data(result.standardOutput.utf8))
        #expect(report.places.map(\.name) == input.value.names)
    }
}
