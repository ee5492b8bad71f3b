import Foundation
import POISockets
import POITestSupport
import PortableTestSupport
import Testing

/// `poi nearby` as a user runs it: the built executable, against the in-process server or a `poi-server` process.
///
/// The talk's end-to-end advice (WWDC 2018 session 417, "Testing network requests"): run the whole app against a
/// local mock server whose data the test controls. Each test launches its own processes on port 0, so tests run
/// in parallel, and every server is stopped however the test ends.
@Suite("poi nearby, end to end", .timeLimit(.minutes(1)))
struct NearbyEndToEndTests {
    /// `poi` as the user runs it: the built executable, launched.
    static let poi = ProgramUnderTest.poi(.launched)

    static let convention = ["--lat", "37.3293", "--long", "-121.8893"]

    /// The JSON schema of `poi nearby --json`, read back.
    struct Report: Decodable {
        struct Place: Decodable {
            var name: String
            var category: String?
            var distanceMeters: Double?
            var distance: String?
        }

        var position: [String: Double]
        var places: [Place]
    }

    @Test("With no server given, the built-in server answers and the places come nearest first")
    func builtInServer() async throws {
        let result = try await Self.poi.run(["nearby"] + Self.convention + ["--limit", "3"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first == "Places near 37.3293, -121.8893, nearest first:")
        #expect(
            lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) } == [
                "40 m  San Jose McEnery Convention Center  (venue)",
                "150 m  Center for the Performing Arts  (venue)",
                "260 m  San Jose Museum of Quilts & Textiles  (museum)",
            ])
    }

    @Test("--json prints the documented schema, nearest first, parsed back")
    func json() async throws {
        let result = try await Self.poi.run(["nearby", "--json"] + Self.convention)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.standardOutput.utf8))
        #expect(report.position == ["latitude": 37.3293, "longitude": -121.8893])
        #expect(report.places.count == 22)
        let distances = report.places.compactMap(\.distanceMeters)
        #expect(distances.count == 22)
        #expect(distances == distances.sorted())
        #expect(report.places.first?.name == "San Jose McEnery Convention Center")
        #expect(report.places.first?.distance == "40 m")
        #expect(report.places.last?.name == "Winchester Mystery House")
    }

    @Test("Against a poi-server process with its own data, given by --server and by POI_SERVER_URL")
    func serverProcessWithData() async throws {
        let data = TestScratch.file("places", suffix: "json")
        try Data(
            #"""
            [{"name": "Far", "coordinate": {"latitude": 37.40, "longitude": -121.89}},
             {"name": "Near", "coordinate": {"latitude": 37.33, "longitude": -121.8893}, "category": "park"}]
            """#.utf8
        ).write(to: data)
        defer { try? FileManager.default.removeItem(at: data) }

        let (outputs, exitStatus) = try await Programs.withPOIServer(["--data", data.path]) { server in
            let byOption = try await Self.poi.run(["nearby", "--server", server.url.absoluteString] + Self.convention)
            let byEnvironment = try await Self.poi.run(
                ["nearby"] + Self.convention,
                environment: ["POI_SERVER_URL": server.url.absoluteString]
            )
            return [byOption, byEnvironment].map(\.standardOutput)
        }
        #expect(exitStatus == 0, "poi-server stops cleanly on SIGTERM")
        for output in outputs {
            #expect(
                output.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) } == [
                    "80 m  Near  (park)",
                    "7.9 km  Far",
                ])
        }
    }

    @Test(
        "Each server fault ends with its own exit status and a one-line message",
        arguments: [
            (["--fault", "500"], [String](), 81, "answered HTTP 500"),
            (["--fault", "not-json"], [], 76, "sent a bad answer: the server's answer is not the expected JSON"),
            (["--fault", "drop"], [], 69, "closed the connection without answering"),
            (["--fault", "slow", "--slow-ms", "3000"], ["--timeout", "0.2"], 75, "did not answer within 0.2 seconds"),
            (
                ["--fault", "stall", "--slow-ms", "3000"], ["--timeout", "0.2"], 75, "did not answer within 0.2 seconds"
            ),
        ]
    )
    func faults(serverArguments: [String], clientArguments: [String], status: Int32, message: String) async throws {
        let (result, _) = try await Programs.withPOIServer(serverArguments) { server in
            try await Self.poi.run(
                ["nearby", "--server", server.url.absoluteString] + Self.convention + clientArguments
            )
        }
        #expect(result.status == status, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "one line, no stack trace: \(result.standardError)")
        #expect(lines.first?.hasPrefix("poi: ") == true)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test(
        "--timeout's fraction is waited for, no less: Linux's URLSession alone took a fraction under 1 s as none",
        arguments: [0.2, 0.5]
    )
    func timeoutFraction(seconds: Double) async throws {
        let clock = ContinuousClock()
        let (result, took) = try await Programs.withPOIServer(["--fault", "slow", "--slow-ms", "3000"]) { server in
            let start = clock.now
            let result = try await Self.poi.run(
                ["nearby", "--server", server.url.absoluteString, "--timeout", "\(seconds)"] + Self.convention)
            return (result, clock.now - start)
        }.0
        #expect(result.status == 75, "\(result.standardError)")
        #expect(result.standardError.contains("did not answer within \(seconds) seconds"), "\(result.standardError)")
        #expect(took >= .seconds(seconds), "poi gave up after \(took), before its --timeout \(seconds)")
        // How long the load ran before poi gave up, as poi measured it: the process's start and exit, which take
        // seconds under a sanitizer or with the cores busy, are not in it. URLSession's own timeout, a backstop a
        // second above the deadline in whole seconds, would give up at 2 s; the server answers at 3 s.
        let gaveUp = result.standardError.firstMatch(of: /gave up after ([0-9.]+) s/).flatMap { Double($0.1) }
        #expect(gaveUp.map { $0 >= seconds } == true, "poi gave up before its --timeout: \(result.standardError)")
        #expect(gaveUp.map { $0 < seconds + 1 } == true, "poi waited well past its --timeout: \(result.standardError)")
    }

    @Test(
        "A server that answers at once: the places, status 0, at once, whatever --timeout (under a second included)",
        arguments: [0.5, 30]
    )
    func timeoutNotWaitedFor(seconds: Double) async throws {
        let clock = ContinuousClock()
        let (result, took) = try await Programs.withPOIServer([]) { server in
            let start = clock.now
            let result = try await Self.poi.run(
                ["nearby", "--server", server.url.absoluteString, "--timeout", "\(seconds)"] + Self.convention)
            return (result, clock.now - start)
        }.0
        // Status 0 with the places: the answer came within the deadline, as poi measured it, under a second too.
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.isEmpty)
        // The answer ends the wait: the deadline does not hold poi until it passes. Measured on the process, whose
        // start and exit take seconds under a sanitizer with the cores busy (2.5 s in a CI run under
        // ThreadSanitizer beside the other lane's builds), so only against a deadline far above them.
        if seconds >= 30 {
            #expect(took < .seconds(seconds), "poi took \(took), as if it waited for its --timeout \(seconds)")
        }
    }

    @Test(
        "poi-server killed (SIGKILL) while poi waits for its answer: exit status 69, one line, well within --timeout",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/net/tcp"), "reads Linux's table of connections")
    )
    func serverKilledWhileAnswering() async throws {
        // Once poi's connection is established, the server holds it (the slow fault answers after a minute): the
        // kill comes while poi waits for the head.
        let (result, took) = try await Self.poiWithServerKilled(fault: "slow", once: "poi's connection is there") {
            Self.hasEstablishedConnection(toPort: UInt16($0.url.port ?? 0))
        }
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains("closed the connection without answering"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "one line: \(result.standardError)")
        #expect(took < .seconds(15), "poi ended well before its 30 s timeout")
    }

    @Test(
        "poi-server killed (SIGKILL) midway through its answer: exit status 69, one line, well within --timeout",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/comm"), "reads Linux's names of threads")
    )
    func serverKilledMidAnswer() async throws {
        // The stall fault writes the head and half the body, names its thread (StubServer.stalledThreadName), then
        // sleeps a minute: once a thread of the server has that name, it is midway through its answer, and the kill
        // comes then. (Not "a thread sleeps": ThreadSanitizer's own thread in poi-server sleeps from the start.)
        let (result, took) = try await Self.poiWithServerKilled(fault: "stall", once: "a thread stalled midway") {
            Self.hasThread(named: "stalled midway", in: $0.processIdentifier)
        }
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains("the connection to the server at"), "\(result.standardError)")
        #expect(!result.standardError.contains("is it running"), "it was running: \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "one line: \(result.standardError)")
        #expect(took < .seconds(15), "poi ended well before its 30 s timeout")
    }

    /// Runs `poi nearby` (with a 30 s timeout) against a poi-server that plays `fault` with a minute's delay, and
    /// kills the server (SIGKILL) as soon as `ready` says so; returns what poi did and how long the whole took.
    ///
    /// The wait for `ready` ends on an event, not on a clock of the test's own: either `ready` holds, or poi has
    /// ended (its own `--timeout 30`, and the run's time limit, bound that), and then an issue names `what`. A wall-clock limit here ran out
    /// under ThreadSanitizer with the other core busy (13 s for what takes 0.1 s unloaded), before anything was wrong.
    static func poiWithServerKilled(
        fault: String, once what: String, _ ready: @escaping @Sendable (Programs.Server) -> Bool
    ) async throws -> (BuiltProduct.Result, took: Duration) {
        let started = ContinuousClock.now
        let (result, _) = try await Programs.withPOIServer(["--fault", fault, "--slow-ms", "60000"]) { server in
            try await withThrowingTaskGroup(of: BuiltProduct.Result?.self) { group in
                group.addTask {
                    do {
                        return try await Self.poi.run(
                            ["nearby", "--server", server.url.absoluteString, "--timeout", "30"] + Self.convention)
                    } catch {
                        // The server is still running here (poi is not: its time limit stopped it): its threads'
                        // names say whether it reached the point waited for.
                        let threads = Self.threadNames(in: server.processIdentifier).joined(separator: ", ")
                        throw BuiltProduct.Failure(
                            description: "\(error) (waiting for this: \(what); the server's threads: \(threads))")
                    }
                }
                group.addTask {
                    while !ready(server) {
                        try Task.checkCancellation()
                        await Task.yield()
                    }
                    return nil
                }
                // The first to end: the wait (nil, ready) or poi (its result, before `what` was seen).
                if let early = try await group.next() ?? nil {
                    group.cancelAll()
                    Issue.record("poi ended before this was seen: \(what); \(early.standardError)")
                    return early
                }
                kill(server.processIdentifier, SIGKILL)
                while let next = try await group.next() {
                    if let result = next { return result }
                }
                throw BuiltProduct.Failure(description: "poi's run gave no result")
            }
        }
        return (result, started.duration(to: .now))
    }

    /// Whether a thread of `process` is named `name`, as Linux lists it in `/proc/PID/task/TID/comm`.
    static func hasThread(named name: String, in process: Int32) -> Bool {
        threadNames(in: process).contains(name)
    }

    /// The names of the threads of `process`, as Linux lists them in `/proc/PID/task/TID/comm`.
    static func threadNames(in process: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/task")) ?? []
        return tasks.compactMap { task in
            // bounded: a file of /proc, read at once, not a pipe a program writes to
            guard let file = FileHandle(forReadingAtPath: "/proc/\(process)/task/\(task)/comm"),
                let data = try? file.readToEnd()
            else { return nil }
            try? file.close()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        }
    }

    /// Whether the system's table of IPv4 TCP connections has an established one whose local port is `port` (the
    /// server's end of a client's connection).
    static func hasEstablishedConnection(toPort port: UInt16) -> Bool {
        // bounded: a file of /proc, read at once, not a pipe a program writes to
        guard let file = FileHandle(forReadingAtPath: "/proc/net/tcp"), let data = try? file.readToEnd() else {
            return false
        }
        try? file.close()
        let local = String(format: ":%04X", port)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { row in
            let columns = row.split(separator: " ")
            return columns.count > 3 && columns[1].hasSuffix(local) && columns[3] == "01"
        }
    }

    @Test("A server that is not running is exit status 69 with what to check")
    func serverNotRunning() async throws {
        // A port that nothing else can take while the test runs, and that refuses every connection: bound, never
        // listening. (A port freed by a stopped server could be taken by a parallel test's server before poi runs.)
        let (held, port) = try Socket.bind(host: "127.0.0.1", port: 0, listening: false)
        defer { held.close() }
        let result = try await Self.poi.run(["nearby", "--server", "http://127.0.0.1:\(port)"] + Self.convention)
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains("is it running? check --server or POI_SERVER_URL"))
    }

    @Test("Without a position and without gpsd, exit status 80 says to start gpsd or pass --lat and --long")
    func noLocation() async throws {
        let (held, port) = try Socket.bind(host: "127.0.0.1", port: 0, listening: false)
        defer { held.close() }
        let result = try await Self.poi.run(["nearby"], environment: ["POI_GPSD_PORT": "\(port)"])
        #expect(result.status == 80, "\(result.standardError)")
        #expect(result.standardError.contains("no location: gpsd is not running at 127.0.0.1:\(port)"))
        #expect(result.standardError.contains("start gpsd, or give the position with --lat and --long"))
    }
}
