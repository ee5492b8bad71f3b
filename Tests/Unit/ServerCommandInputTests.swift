import Foundation
import POICommandLine
import POIDomain
import POILocation
import POILock
import POIServer
import PortableTestSupport
import Testing

@testable import POINetworking
@testable import POIServerCommand

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// poi-server's data file, by class and boundary: the places each kind of file gives, or the exit status.
///
/// docs/inputs.md lists the cases (scripts/tool inputs).
@Suite("poi-server's data file, by class and boundary")
struct ServerCommandInputTests {

    /// A data file's contents, and the names it must give, or the exit status and the start of the message.
    struct DataFile: Sendable {
        var contents: String
        var expected: Result<[String], CommandLineFailure>
    }

    struct CommandLineFailure: Error, Equatable, Sendable {
        var status: Int32
        var message: String
    }

    static func data(
        _ kind: InputCase<DataFile>.Kind, _ label: String, _ contents: String,
        _ expected: Result<[String], CommandLineFailure>
    ) -> InputCase<DataFile> {
        InputCase("poi-server --data", kind, label, value: DataFile(contents: contents, expected: expected))
    }

    static let notPlaces = "is not a JSON array of places"

    static let dataCases = [
        data(
            .valid, "two places, one without a position",
            #"[{"name":"A","coordinate":{"latitude":1,"longitude":2}},{"name":"B"}]"#, .success(["A", "B"])),
        data(.valid, "a place with a category", #"[{"name":"A","category":"food"}]"#, .success(["A"])),
        data(.empty, "an empty file", "", .failure(CommandLineFailure(status: 65, message: notPlaces))),
        data(.empty, "[], an empty array: no places served, not the bundled ones", "[]", .success([])),
        data(
            .invalid, "an object, not an array", #"{"name":"A"}"#,
            .failure(CommandLineFailure(status: 65, message: notPlaces))),
        data(
            .invalid, "a place with no name", #"[{"coordinate":{"latitude":1,"longitude":2}}]"#,
            .failure(CommandLineFailure(status: 65, message: notPlaces))),
        data(
            .boundary, "a place at latitude 90.000001",
            #"[{"name":"A","coordinate":{"latitude":90.000001,"longitude":2}}]"#,
            .failure(CommandLineFailure(status: 65, message: notPlaces))),
        data(
            .boundary, "a place at latitude 90", #"[{"name":"A","coordinate":{"latitude":90,"longitude":2}}]"#,
            .success(["A"])),
        data(
            .separator, "a name holding a comma, a quote and a newline", #"[{"name":"A, \"B\"\nC"}]"#,
            .success(["A, \"B\"\nC"])),
        data(
            .huge, "a latitude of 1e400, which JSON allows and a Double cannot hold: named, with where it stands",
            "[\n" + #"{"name":"A","coordinate":{"latitude":1e400,"longitude":2}}]"#,
            .failure(
                CommandLineFailure(
                    status: 65,
                    message: notPlaces
                        + ": the number 1e400 at [0].coordinate.latitude (line 2, column 38) is too large for a Double"
                ))),
        data(
            .boundary, "a longitude of -1e-400, too small for a Double and not 0: named",
            #"[{"name":"A"},{"name":"B","coordinate":{"latitude":1,"longitude":-1e-400}}]"#,
            .failure(
                CommandLineFailure(
                    status: 65,
                    message: notPlaces
                        + ": the number -1e-400 at [1].coordinate.longitude (line 1, column 66) is too small"
                ))),
        data(
            .boundary, "a latitude of 1e-300, small but a Double: read",
            #"[{"name":"A","coordinate":{"latitude":1e-300,"longitude":2}}]"#, .success(["A"])),
        data(
            .huge, "10,000 places", "[" + (1...10_000).map { #"{"name":"P\#($0)"}"# }.joined(separator: ",") + "]",
            .success((1...10_000).map { "P\($0)" })),
    ]

    /// Each class of file given to `--data`, read by the command line as the program reads it: the places the
    /// configuration's routes then hold, all and only the file's (an empty array holds none, not the bundled places),
    /// and what the routes answer, `/health`'s count and every one of them listed by `/locations`.
    ///
    /// The huge file's 10,000 places are listed by `StubServerRoutesTests.everyPlaceListed`, from the places
    /// themselves: listed here too, they made this test take 0.3 s alone on a busy machine, past the unit budget.
    @Test("poi-server --data: each class of file, and what the server then answers", arguments: dataCases)
    func dataFiles(_ input: InputCase<DataFile>) throws {
        let folder = TestScratch.file("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("places.json")
        try Data(input.value.contents.utf8).write(to: file)
        let result = Result { () throws(CommandLineError) in try ServerCommand.configuration(["--data", file.path]) }
        switch (result, input.value.expected) {
        case (.success(let configuration), .success(let expected)):
            #expect(configuration.routes.places.map(\.name) == expected)
            let health = try #require(Self.answer(configuration.routes, "/health", []))
            #expect(try JSONDecoder().decode(Health.self, from: health).places == expected.count)
            if input.kind != .huge {
                let listed = try #require(
                    Self.answer(configuration.routes, "/locations", [("lat", "0"), ("long", "0")]))
                #expect(
                    try JSONDecoder().decode([PointOfInterest].self, from: listed).map(\.name).sorted()
                        == expected.sorted())
            }
        case (.failure(let error), .failure(let expected)):
            #expect(error.code.rawValue == expected.status)
            #expect(error.message.hasPrefix("--data: \(file.path) \(expected.message)"))
        default:
            Issue.record("expected \(input.value.expected), got \(result)")
        }
    }

    /// `/health`'s answer, as far as these tests read it.
    struct Health: Decodable {
        var places: Int
    }

    /// The body of the routes' answer to a GET of `path` with `query`, when it is a 200 sent at once.
    static func answer(_ routes: StubServerRoutes, _ path: String, _ query: [(String, String)]) -> Data? {
        let request = HTTPRequest(
            method: "GET", path: path, query: query.map { URLQueryItem(name: $0.0, value: $0.1) })
        guard case .respond(let response) = routes.reply(to: request), response.status == 200 else { return nil }
        return response.body
    }

    /// Options that set the routes, given with --data in one order and the other: none resets another.
    static let pairCases = [
        InputCase(
            "poi-server --data", .pair, "before --fault and --slow-ms",
            value: ["--data", "FILE", "--fault", "500", "--slow-ms", "300"]),
        InputCase(
            "poi-server --data", .pair, "after --fault and --slow-ms",
            value: ["--fault", "500", "--slow-ms", "300", "--data", "FILE"]),
        InputCase(
            "poi-server --data", .pair, "between --slow-ms and --fault",
            value: ["--slow-ms=300", "--data=FILE", "--fault=500"]),
    ]

    @Test(
        "--data with --fault and --slow-ms, in any order: the places, the fault and the delay all hold",
        arguments: pairCases)
    func dataWithOtherOptions(_ input: InputCase<[String]>) throws {
        let folder = TestScratch.file("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("places.json")
        try Data(#"[{"name":"A"}]"#.utf8).write(to: file)
        let arguments = input.value.map { $0.replacingOccurrences(of: "FILE", with: file.path) }
        let configuration = try ServerCommand.configuration(arguments)
        #expect(configuration.routes.places.map(\.name) == ["A"])
        #expect(configuration.routes.fault == .serverError)
        #expect(configuration.routes.slowDelay == .milliseconds(300))
    }

    @Test(
        "--data --help names a file called --help, which is not there: no help, exit 66",
        arguments: [
            InputCase("poi-server --data", .invalid, "a file named --help, which is not there", value: "--help")
        ])
    func dataNamedLikeAnOption(_ input: InputCase<String>) async {
        let errors = Lock<[String]>([])
        let command = ServerCommand(output: { _ in }, errorOutput: { text in errors.withLock { $0.append(text) } })
        let status = await command.run(["--data", input.value]) {}
        #expect(status == .unreadableInput)
        #expect(errors.withLock { $0.first?.hasPrefix("poi-server: --data: cannot read --help") } == true)
    }
}
