import Foundation
import POICommandLine
import POIDomain
import POILock
import POIServer
import POISockets
import POITestSupport
import PortableTestSupport
import Testing

@testable import POICommands

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `poi` run in process with its built-in server: the command's whole path over loopback HTTP, no process launched.
@Suite("poi nearby, in process with its built-in server", .timeLimit(.minutes(1)))
struct POICommandIntegrationTests {
    static let convention = ["--lat", "37.3293", "--long", "-121.8893"]

    /// `poi` run in process, as the unit tier runs it.
    static let poi = ProgramUnderTest.poi(.inProcess)

    @Test(
        "--json lists as many places as --limit allows, the nearest ones",
        arguments: [
            (1, ["San Jose McEnery Convention Center"]),
            (2, ["San Jose McEnery Convention Center", "Center for the Performing Arts"]),
        ]
    )
    func jsonHonoursLimit(limit: Int, names: [String]) async throws {
        let result = try await Self.poi.run(["nearby", "--json", "--limit", "\(limit)"] + Self.convention)
        #expect(result.status == ExitCode.success.rawValue, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").count == 1)
        let report = try JSONDecoder().decode(NearbyReport.self, from: Data(result.standardOutput.utf8))
        #expect(report.places.map(\.name) == names)
    }

    @Test("--json prints one line of JSON: keys sorted, a slash in a name left as it is")
    func jsonText() async throws {
        var configuration = StubServer.Configuration()
        configuration.routes.places = [
            PointOfInterest(
                name: "Caffè A/B", coordinate: Coordinate(latitude: 37.3293, longitude: -121.8893),
                category: .restaurant)
        ]
        let server = try StubServer(configuration: configuration)
        defer { server.stop() }
        let result = try await Self.poi.run(
            ["nearby", "--json", "--server", server.url.absoluteString] + Self.convention)
        #expect(result.status == ExitCode.success.rawValue, "\(result.standardError)")
        #expect(
            result.standardOutput
                == #"{"places":[{"category":"restaurant","coordinate":{"latitude":37.3293,"longitude":-121.8893},"#
                + #""distance":"0 m","distanceMeters":0,"name":"Caffè A/B"}],"#
                + #""position":{"latitude":37.3293,"longitude":-121.8893}}"# + "\n")
    }

    @Test(
        "The server poi nearby starts in-process is stopped when the run ends, answered or not",
        arguments: [nil, .drop] as [StubServerFault?])
    @MainActor
    func inProcessServerStopped(fault: StubServerFault?) async throws {
        let started = Lock<StubServer?>(nil)
        let nearby = NearbyCommand(environment: [:]) {
            var configuration = StubServer.Configuration()
            configuration.routes.fault = fault
            let server = try StubServer(configuration: configuration)
            started.withLock { $0 = server }
            return server
        }
        let request = try nearby.parse(Self.convention)
        var answered = true
        do {
            try await nearby.run(request) { _ in }
        } catch {
            answered = false
        }
        #expect(answered == (fault == nil))
        let server = try #require(started.withLock { $0 })
        // A server still running never ends its accept loop: the wait is bounded, so that the test fails instead. The
        // blocking wait has a thread of its own (BlockingCall.run): a blocking wait directly in an async body does not
        // compile on a Mac (Darwin's Dispatch marks `wait` noasync; docs/macos.md).
        try await withBoundedWait(.seconds(5), what: "the in-process server's stop (it still runs)") {
            await BlockingCall.run { server.waitUntilStopped() }
        }
    }

    @Test(
        "The session poi nearby loads through is invalidated when the load ends, answered or not",
        arguments: [nil, .drop] as [StubServerFault?])
    func sessionInvalidated(fault: StubServerFault?) async throws {
        var configuration = StubServer.Configuration()
        configuration.routes.fault = fault
        let server = try StubServer(configuration: configuration)
        defer { server.stop() }
        let spy = InvalidationSpy()
        let places = try? await NearbyCommand.load(
            near: Coordinate(latitude: 37.3293, longitude: -121.8893), from: server.url, timeout: 5,
            sessionDelegate: spy)
        #expect((places != nil) == (fault == nil))
        // A session left valid is never invalidated: the wait is bounded, so that the test fails instead.
        // The semaphore's wait runs on a thread of its own (Darwin marks it noasync), its own timeout the bound.
        let invalidated = try await boundedBlockingCall("invalidation") { spy.invalidated.wait(timeout: .now() + 5) }
        #expect(invalidated == .success, "the session was not invalidated")
    }
}

/// Hears that a session became invalid.
private final class InvalidationSpy: NSObject, URLSessionDelegate, Sendable {
    let invalidated = DispatchSemaphore(value: 0)

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        invalidated.signal()
    }
}
