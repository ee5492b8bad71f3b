import Foundation
import POIDomain
import POILocation
import POILock
import POISockets
import POITestSupport
import PortableTestSupport
import Testing

/// The gpsd client against a fake gpsd on a loopback port: real sockets, scripted reports, no waiting on time.
///
/// Every script ends by closing the connection, so each outcome is decided by what gpsd sent, and by a timeout only
/// in the tests of the timeout.
@Suite("GPSDLocationFetcher against a fake gpsd", .timeLimit(.minutes(1)))
struct GPSDLocationFetcherTests {
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    static let devices =
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"NMEA0183"}]}"#
    static let watch = #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false}"#
    static let noFix = #"{"class":"TPV","device":"/dev/ttyUSB0","mode":1}"#
    static let sky =
        #"{"class":"SKY","device":"/dev/ttyUSB0","hdop":0.93,"satellites":[{"PRN":5,"el":31,"az":86,"ss":32,"used":true}]}"#
    static let fix = #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"lat":37.3293,"lon":-121.8893,"altHAE":25.3}"#
    static let emptyPoll = #"{"class":"POLL","time":"2026-11-21T11:30:35.612Z","active":0,"tpv":[],"gst":[],"sky":[]}"#
    static let polledFix = #"{"class":"POLL","active":1,"tpv":[\#(fix)],"gst":[],"sky":[]}"#

    @Test("A fetcher keeps the gpsd address it is given; the default is the local gpsd's")
    func address() {
        let given = GPSDLocationFetcher(host: "gps.example", port: 2_948)
        #expect((given.host, given.port) == ("gps.example", 2_948))
        let local = GPSDLocationFetcher()
        #expect((local.host, local.port) == ("127.0.0.1", GPSDLocationFetcher.defaultPort))
    }

    /// A delegate that hands the fetcher's one answer to an async caller.
    final class Answer: LocationFetcherDelegate {
        let continuation: CheckedContinuation<Result<[Coordinate], any Error>, Never>

        init(_ continuation: CheckedContinuation<Result<[Coordinate], any Error>, Never>) {
            self.continuation = continuation
        }

        func locationFetcher(_ fetcher: any LocationFetcher, didUpdateLocations locations: [Coordinate]) {
            continuation.resume(returning: .success(locations))
        }

        func locationFetcher(_ fetcher: any LocationFetcher, didFailWithError error: any Error) {
            continuation.resume(returning: .failure(error))
        }
    }

    /// Runs one `requestLocation()` against a fake gpsd that plays `script`.
    static func request(script: [String], reportsWithoutFix: Int = 5) async throws -> (
        Result<[Coordinate], any Error>, commands: [String]
    ) {
        let gpsd = try FakeGPSD(script: script)
        let fetcher = GPSDLocationFetcher(port: gpsd.port, reportsWithoutFix: reportsWithoutFix)
        return (try await answer(of: fetcher), gpsd.receivedCommands)
    }

    /// The one answer of `fetcher` to `requestLocation()`.
    static func answer(of fetcher: GPSDLocationFetcher) async throws -> Result<[Coordinate], any Error> {
        let delegate = Lock<Answer?>(nil)  // held here: the fetcher's delegate is weak
        let result = try await boundedContinuation("the fetcher's answer to requestLocation()") { continuation in
            let answer = Answer(continuation)
            delegate.withLock { $0 = answer }
            fetcher.locationFetcherDelegate = answer
            fetcher.requestLocation()
        }
        withExtendedLifetime(delegate) {}
        return result
    }

    @Test("A fix after the greeting, the device list and a search is reported, after a WATCH and a POLL command")
    func fix() async throws {
        let (result, commands) = try await Self.request(
            script: [Self.version, Self.devices, Self.watch, Self.noFix, Self.sky, Self.fix]
        )
        #expect(try result.get() == [Coordinate(latitude: 37.3293, longitude: -121.8893)])
        #expect(commands == [#"?WATCH={"enable":true,"json":true};?POLL;"#])
    }

    @Test("gpsd's latest fix, in its answer to POLL, is reported at once, with no TPV report to wait for")
    func polledFix() async throws {
        let (result, _) = try await Self.request(script: [Self.version, Self.devices, Self.watch, Self.polledFix])
        #expect(try result.get() == [Coordinate(latitude: 37.3293, longitude: -121.8893)])
    }

    @Test("A POLL answer without a fix leaves the answer to the TPV reports, and does not count as one without a fix")
    func pollWithoutFix() async throws {
        let (result, _) = try await Self.request(
            script: [Self.version, Self.watch, Self.emptyPoll, Self.fix],
            reportsWithoutFix: 1
        )
        #expect(try result.get() == [Coordinate(latitude: 37.3293, longitude: -121.8893)])
    }

    @Test("Reports without a fix end in LocationError.noFix")
    func noFix() async throws {
        let (result, _) = try await Self.request(
            script: [Self.version, Self.watch, Self.noFix, Self.sky, Self.noFix, Self.noFix],
            reportsWithoutFix: 3
        )
        #expect(throws: LocationError.noFix(mode: 1)) { try result.get() }
    }

    @Test("A fix after one report fewer than the limit is reported: the count starts at the first report")
    func fixJustBeforeTheLimit() async throws {
        let (result, _) = try await Self.request(
            script: [Self.version, Self.watch, Self.noFix, Self.noFix, Self.fix],
            reportsWithoutFix: 3
        )
        #expect(try result.get() == [Coordinate(latitude: 37.3293, longitude: -121.8893)])
    }

    @Test("By default five reports without a fix end the wait, and a fix after four is taken")
    func defaultPatience() async throws {
        let searching = Array(repeating: Self.noFix, count: 5)
        let patient = try FakeGPSD(script: [Self.version, Self.watch] + searching + [Self.fix])
        defer { patient.stop() }
        let ended = try await Self.answer(of: GPSDLocationFetcher(port: patient.port))
        #expect(throws: LocationError.noFix(mode: 1)) { try ended.get() }

        let found = try FakeGPSD(script: [Self.version, Self.watch] + searching.dropLast() + [Self.fix])
        defer { found.stop() }
        let fix = try await Self.answer(of: GPSDLocationFetcher(port: found.port))
        #expect(try fix.get() == [Coordinate(latitude: 37.3293, longitude: -121.8893)])
    }

    @Test("A gpsd that accepts and never answers is LocationError.timedOut, with the time waited")
    func silentGPSD() async throws {
        // Listening, never accepting: the connection completes in the kernel's backlog and no line ever comes.
        let (socket, port) = try Socket.bind(host: "127.0.0.1", port: 0)
        defer { socket.close() }
        let fetcher = GPSDLocationFetcher(port: port, timeout: .milliseconds(20))
        let result = try await Self.answer(of: fetcher)
        #expect(throws: LocationError.timedOut(seconds: 0.02)) { try result.get() }
    }

    // gpsd goes on sending SKY reports (the satellites it sees) while its receiver searches: a deadline counted from
    // each line would never pass, and poi would wait for as long as gpsd talks.
    @Test("A gpsd that keeps sending reports without a position still ends the request at its timeout")
    func talkativeGPSD() async throws {
        // A SKY report every 10 ms, 500 of them: at least 5 s before the connection closes.
        let gpsd = try FakeGPSD(
            script: [Self.version, Self.devices, Self.watch],
            thenRepeating: FakeGPSD.Repetition(line: Self.sky, every: .milliseconds(10), times: 500)
        )
        defer { gpsd.stop() }
        let fetcher = GPSDLocationFetcher(port: gpsd.port, timeout: .milliseconds(100))
        let result = try await Self.answer(of: fetcher)
        #expect(throws: LocationError.timedOut(seconds: 0.1)) { try result.get() }
    }

    @Test("gpsd closing the connection before a fix is LocationError.gpsdClosedConnection")
    func closedBeforeFix() async throws {
        let (result, _) = try await Self.request(script: [Self.version, Self.watch, Self.noFix])
        #expect(throws: LocationError.gpsdClosedConnection) { try result.get() }
    }

    @Test("An ERROR report ends the request with gpsd's message")
    func errorReport() async throws {
        let (result, _) = try await Self.request(
            script: [Self.version, #"{"class":"ERROR","message":"Can't perform device open"}"#]
        )
        #expect(throws: LocationError.gpsdError("Can't perform device open")) { try result.get() }
    }

    @Test("A line that is not a gpsd report ends the request with a clear error")
    func garbage() async throws {
        let (result, _) = try await Self.request(script: [Self.version, "HTTP/1.1 400 Bad Request"])
        #expect(throws: LocationError.gpsdError("not a gpsd JSON report: HTTP/1.1 400 Bad Request")) {
            try result.get()
        }
    }

    // MARK: System calls that fail (SystemCallFaults), and nothing left open after

    /// Runs one `requestLocation()` whose connection carries `injector`'s faults against a fake gpsd that plays
    /// `script`; after the answer, how many of the process's connections to the fake gpsd are still open (the client's,
    /// if it leaked one).
    ///
    /// Counted before the fake stops: the fetcher closes its connection before it answers, and while the fake holds its
    /// port no other test's server can take it. Counted after, a parallel test's connection to a server that got the
    /// freed port was counted as this fetcher's (once in CI: 1 where 0 was expected, the fetcher's code unchanged).
    static func request(script: [String], injector: FaultInjector) async throws -> (
        Result<[Coordinate], any Error>, commands: [String], leftOpen: Int?
    ) {
        let gpsd = try FakeGPSD(script: script)
        defer { gpsd.stop() }
        let fetcher = GPSDLocationFetcher(port: gpsd.port, faults: injector.faults)
        let result = try await answer(of: fetcher)
        let leftOpen = OpenSockets.count(connectedTo: gpsd.port)
        gpsd.stop()
        return (result, gpsd.receivedCommands, leftOpen)
    }

    @Test("Reports read a byte at a time, after reads a signal interrupted, still give the fix; nothing is left open")
    func shortAndInterruptedReads() async throws {
        let injector = FaultInjector(.fail(.receive, with: EINTR, calls: 1...3), .shorten(.receive, to: 1))
        let (result, _, leftOpen) = try await Self.request(
            script: [Self.version, Self.devices, Self.watch, Self.fix], injector: injector)
        #expect(try result.get() == [Coordinate(latitude: 37.3293, longitude: -121.8893)])
        #expect(injector.faulted(.receive) > 300)  // one byte a read
        #expect(leftOpen ?? 0 == 0)
    }

    @Test("The WATCH and POLL commands, written 7 bytes at a time, reach gpsd whole")
    func shortWrites() async throws {
        let injector = FaultInjector(.shorten(.send, to: 7))
        let (result, commands, leftOpen) = try await Self.request(
            script: [Self.version, Self.fix], injector: injector)
        #expect(try result.get() == [Coordinate(latitude: 37.3293, longitude: -121.8893)])
        #expect(commands == [#"?WATCH={"enable":true,"json":true};?POLL;"#])
        #expect(injector.count(of: .send) == 6)  // 40 bytes and the newline: 5 writes of 7, one of 6
        #expect(leftOpen ?? 0 == 0)
    }

    @Test(
        "A read that fails mid-stream ends the request: a reset as a closed connection, any other error in the system's words",
        arguments: [
            (ECONNRESET, LocationError.gpsdClosedConnection), (EIO, LocationError.gpsdError("input/output error")),
        ])
    func failedRead(code: Int32, error: LocationError) async throws {
        // Reads of at most 50 bytes: the first takes part of the greeting, the second fails.
        let injector = FaultInjector(.fail(.receive, with: code, calls: 2...2), .shorten(.receive, to: 50))
        let (result, _, leftOpen) = try await Self.request(
            script: [Self.version, Self.watch, Self.noFix, Self.fix], injector: injector)
        #expect(throws: error) { try result.get() }
        #expect(injector.count(of: .receive) == 2)
        #expect(leftOpen ?? 0 == 0)
    }

    @Test("A command that cannot be written (gpsd hung up: EPIPE) ends the request in the system's words")
    func failedWrite() async throws {
        let injector = FaultInjector(.fail(.send, with: EPIPE))
        let (result, commands, leftOpen) = try await Self.request(script: [Self.version, Self.fix], injector: injector)
        #expect(throws: LocationError.gpsdError("broken pipe")) { try result.get() }
        #expect(commands.isEmpty)
        #expect(leftOpen ?? 0 == 0)
    }

    @Test("No descriptor left for the connection (EMFILE) is LocationError.gpsdUnreachable, in the system's words")
    func noDescriptor() async throws {
        let injector = FaultInjector(.fail(.socket, with: EMFILE))
        let (result, _, leftOpen) = try await Self.request(script: [Self.version, Self.fix], injector: injector)
        let error = try #require(throws: LocationError.self) { try result.get() }
        guard case .gpsdUnreachable(let host, _, let reason) = error else {
            Issue.record("\(error) is not gpsdUnreachable")
            return
        }
        #expect(host == "127.0.0.1")
        #expect(reason == "too many open files")
        #expect(leftOpen ?? 0 == 0)
    }

    @Test("No gpsd on the port is LocationError.gpsdUnreachable, with the system's reason and what to do")
    func notRunning() async throws {
        // A port this test holds, bound and not listening: it refuses connections and no other process can take it.
        let (held, port) = try Socket.bind(host: "127.0.0.1", port: 0, listening: false)
        defer { held.close() }
        let fetcher = GPSDLocationFetcher(port: port)
        let provider = CurrentLocationProvider(locationFetcher: fetcher, notificationCenter: NotificationCenter())
        let result = try await boundedContinuation("locatePointOfInterest's completion") { continuation in
            provider.locatePointOfInterest { continuation.resume(returning: $0) }
        }
        let error = try #require(throws: LocationError.self) { try result.get() }
        #expect(error == .gpsdUnreachable(host: "127.0.0.1", port: port, reason: "connection refused"))
        #expect(error.description.contains("start gpsd, or give the position with --lat and --long"))
    }

    @Test("Through CurrentLocationProvider, gpsd's position near the convention center is a point of interest")
    func providerWithGPSD() async throws {
        let gpsd = try FakeGPSD(script: [Self.version, Self.watch, Self.fix])
        defer { gpsd.stop() }
        let provider = CurrentLocationProvider(
            locationFetcher: GPSDLocationFetcher(port: gpsd.port),
            notificationCenter: NotificationCenter()
        )
        let isPointOfInterest = try await boundedContinuation("checkCurrentLocation's completion") { continuation in
            provider.checkCurrentLocation { continuation.resume(returning: $0) }
        }
        #expect(isPointOfInterest)
    }
}
