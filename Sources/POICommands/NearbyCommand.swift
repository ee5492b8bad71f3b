import Foundation
import POIApp
import POICommandLine
import POIDomain
import POILocation
import POINetworking
import POIServer
import POISockets

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `poi nearby`: the places near a position, nearest first, through the same layers as the app: the position from
/// a `LocationFetcher` through `CurrentLocationProvider`, the places from `APIRequestLoader`, the order from the
/// list model.
struct NearbyCommand {
    static let latitude = Option.value(
        "lat", "DEGREES", "latitude, -90...90 (with --long; without both, gpsd is asked for the position)")
    static let longitude = Option.value("long", "DEGREES", "longitude, -180...180")
    static let limit = Option.value("limit", "N", "show at most N places, N of any size (default: all)")
    static let json = Option.flag("json", "print the result as JSON instead of text")
    static let server = Option.value(
        "server", "URL", "the server's base URL (default: $\(serverVariable.name), else a server started in-process)")
    static let timeout = Option.seconds("timeout", "how long to wait for the server", default: defaultTimeout)

    static let serverVariable = EnvironmentVariable(
        "POI_SERVER_URL", "the server's base URL when --server is not given")
    static let gpsdHostVariable = EnvironmentVariable("POI_GPSD_HOST", "gpsd's host (default 127.0.0.1)")
    static let gpsdPortVariable = EnvironmentVariable(
        "POI_GPSD_PORT", "gpsd's port, 1...65535 (default \(GPSDLocationFetcher.defaultPort))")
    static let systemVariable = EnvironmentVariable(SystemProfile.variable, SystemProfile.summary)

    /// How long `poi nearby` waits for the server unless `--timeout` says otherwise.
    static let defaultTimeout: TimeInterval = 10

    static let description = CommandDescription(
        name: "poi nearby",
        helpCommand: "poi help nearby",
        abstract: "lists the places near a position, nearest first, each with its distance.",
        options: [latitude, longitude, limit, json, server, timeout],
        environment: [serverVariable, gpsdHostVariable, gpsdPortVariable, systemVariable],
        examples: ["poi nearby --lat 37.3293 --long -121.8893 --limit 5"],
        exitCodes: [
            .success, .usage, .invalidInput, .serverUnreachable, .cannotListen, .timeout, .malformedResponse,
            .noLocation, .httpError,
        ]
    )

    /// What the command line asked for.
    struct Request {
        /// Where the position comes from.
        var position: PositionSource
        var limit: Int?
        var json: Bool
        /// `nil`: start the package's server in-process.
        var serverURL: URL?
        var timeout: TimeInterval
    }

    /// Where the position comes from; both go through a `LocationFetcher`.
    enum PositionSource: Equatable {
        /// Given on the command line.
        case given(Coordinate)
        /// Asked of gpsd.
        case gpsd(host: String, port: UInt16)

        func makeFetcher() -> any LocationFetcher {
            switch self {
            case .given(let position): FixedLocationFetcher(position: position)
            case .gpsd(let host, let port): GPSDLocationFetcher(host: host, port: port)
            }
        }
    }

    let environment: [String: String]
    /// Starts the server that answers when none is given.
    ///
    /// The package's own, on 127.0.0.1 and a port the system chooses; a test replaces it to see what `poi nearby`
    /// does when that server cannot listen.
    let startServer: @Sendable () throws -> StubServer

    init(
        environment: [String: String], startServer: @escaping @Sendable () throws -> StubServer = { try StubServer() }
    ) {
        self.environment = environment
        self.startServer = startServer
    }

    /// Reads the options and the environment; throws a usage error for bad ones.
    func parse(_ arguments: [String]) throws(CommandLineError) -> Request {
        let parsed = try Self.description.parse(arguments)
        try parsed.expectNoPositional()
        do throws(SystemProfile.UnknownProfile) {
            _ = try SystemProfile(environmentValue: environment[Self.systemVariable])
        } catch {
            throw Self.description.usageError(error.description)
        }
        let serverURL =
            if let text = parsed.value(Self.server) {
                try Self.serverURL(text, from: "--server")
            } else {
                try environment[Self.serverVariable].flatMap { text throws(CommandLineError) in
                    try Self.serverURL(text, from: Self.serverVariable.name)
                }
            }
        return Request(
            position: try positionSource(parsed),
            // No maximum: a limit past Int.max reads as Int.max, more places than any server lists: all of them.
            limit: try parsed.integer(Self.limit, minimum: 1),
            json: parsed.contains(Self.json),
            serverURL: serverURL,
            timeout: try parsed.seconds(Self.timeout) ?? Self.defaultTimeout
        )
    }

    /// Where the position comes from: `--lat`/`--long`, or gpsd when neither is given.
    private func positionSource(_ parsed: ParsedArguments) throws(CommandLineError) -> PositionSource {
        switch (try parsed.double(Self.latitude), try parsed.double(Self.longitude)) {
        case (let latitude?, let longitude?):
            return .given(Coordinate(latitude: latitude, longitude: longitude))
        case (nil, nil):
            let host = environment[Self.gpsdHostVariable] ?? "127.0.0.1"
            guard !host.isEmpty else {
                throw Self.description.usageError("\(Self.gpsdHostVariable.name) must name a host, not be empty")
            }
            var port = GPSDLocationFetcher.defaultPort
            if let text = environment[Self.gpsdPortVariable] {
                guard let value = UInt16(text), value > 0 else {
                    throw Self.description.usageError(
                        "\(Self.gpsdPortVariable.name) must be a port number, 1...65535, not '\(text)'")
                }
                port = value
            }
            return .gpsd(host: host, port: port)
        default:
            throw Self.description.usageError("--lat and --long go together")
        }
    }

    /// Finds the position, loads the places near it and prints them.
    @MainActor
    func run(_ request: Request, output: @Sendable (String) -> Void) async throws(CommandLineError) {
        let position = try await Self.locate(with: request.position.makeFetcher())
        let places: [PointOfInterest]
        if let serverURL = request.serverURL {
            places = try await Self.load(near: position, from: serverURL, timeout: request.timeout)
        } else {
            // No server given: start the package's server in-process, so that a fresh clone works offline.
            let server: StubServer
            do {
                server = try startServer()
            } catch {
                throw CommandLineError(.cannotListen, "cannot start the built-in server: \(error)")
            }
            defer { server.stop() }
            places = try await Self.load(near: position, from: server.url, timeout: request.timeout)
        }
        let list = PointsOfInterestListModel(
            notificationCenter: NotificationCenter(), places: places, position: position)
        let report = NearbyReport(
            position: position, rows: request.limit.map { Array(list.rows.prefix($0)) } ?? list.rows)
        if request.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            output(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
        } else {
            output(report.text)
        }
    }

    /// The position, through `CurrentLocationProvider` as the app finds it.
    static func locate(with fetcher: sending any LocationFetcher) async throws(CommandLineError) -> Coordinate {
        let provider = CurrentLocationProvider(locationFetcher: fetcher, notificationCenter: NotificationCenter())
        let result = await withCheckedContinuation { continuation in
            provider.locateCurrentPosition { continuation.resume(returning: $0) }
        }
        switch result {
        case .success(let position):
            return position
        case .failure(LocationError.invalidCoordinate(let error)):
            throw CommandLineError(.invalidInput, error.message)
        case .failure(let error):
            throw CommandLineError(.noLocation, "no location: \(error)")
        }
    }

    /// The server URL in `text`: http or https with a host; `source` names where it came from.
    static func serverURL(_ text: String, from source: String) throws(CommandLineError) -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else {
            throw description.usageError(
                "\(source) must be an http or https URL such as http://127.0.0.1:8080, not '\(text)'")
        }
        return url
    }

    /// Loads the places near `position` from the server at `url`.
    ///
    /// The session it loads through is its own, and is invalidated when the load ends, answered or not, so that its
    /// threads end with it; `sessionDelegate` (a test's) hears that (`urlSession(_:didBecomeInvalidWithError:)`).
    static func load(
        near position: Coordinate, from url: URL, timeout: TimeInterval,
        sessionDelegate: (any URLSessionDelegate)? = nil
    ) async throws(CommandLineError) -> [PointOfInterest] {
        let configuration = URLSessionConfiguration.ephemeral
        // Linux's URLSession counts this in whole seconds, and a fraction under one as none (0.7 gave up at once,
        // 1.5 after one second): it is only a backstop, a second above the deadline the command keeps itself.
        configuration.timeoutIntervalForRequest = (timeout + 1).rounded(.up)
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration, delegate: sessionDelegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let loader = APIRequestLoader(apiRequest: PointsOfInterestRequest(baseURL: url), urlSession: session)
        let started = ContinuousClock.now
        do {
            return try await withDeadline(seconds: timeout) {
                try await loader.loadAPIRequest(requestData: position)
            }
        } catch {
            throw commandLineError(for: error, server: url, timeout: timeout, waited: started.duration(to: .now))
        }
    }

    /// `operation`'s result, or `URLError(.timedOut)` once `seconds` have passed, fractions included; the operation
    /// is then cancelled (the load cancels its data task) and awaited.
    static func withDeadline<Value: Sendable>(
        seconds: TimeInterval, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw URLError(.timedOut)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw URLError(.timedOut) }
            return first
        }
    }

    /// The message and exit status for a failed load.
    ///
    /// `waited` is how long the load ran before it failed; a timeout's message says it (`gave up after 0.20 s`), as
    /// poi measured it, whichever deadline ended the wait: the command's, or URLSession's backstop had that come first.
    static func commandLineError(
        for error: any Error, server: URL, timeout: TimeInterval, waited: Duration? = nil
    ) -> CommandLineError {
        let at = "the server at \(server.absoluteString)"
        if let error = error as? APIError {
            switch error {
            case .unacceptableStatusCode(let status, _):
                return CommandLineError(.httpError, "\(at) answered HTTP \(status): \(error)")
            case .malformedResponse, .notHTTPResponse:
                return CommandLineError(.malformedResponse, "\(at) sent a bad answer: \(error)")
            }
        }
        if let error = error as? URLError {
            switch error.code {
            case .timedOut:
                let gaveUp = waited.map { String(format: "gave up after %.2f s; ", $0 / .seconds(1)) } ?? ""
                let message = "\(at) did not answer within \(timeout) seconds (\(gaveUp)raise --timeout)"
                return CommandLineError(.timeout, message)
            case .networkConnectionLost, .badServerResponse, .zeroByteResource:
                return CommandLineError(.serverUnreachable, "\(at) closed the connection without answering")
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
                return CommandLineError(
                    .serverUnreachable,
                    "cannot reach \(at) (\(error.localizedDescription)): is it running? "
                        + "check --\(Self.server.name) or \(Self.serverVariable.name)"
                )
            default:
                // Reached, but the exchange broke off: on Linux an answer cut short (the server died while it
                // answered) is `.unknown`, "transfer closed with N bytes remaining to read".
                return CommandLineError(
                    .serverUnreachable, "the connection to \(at) failed (\(error.localizedDescription))")
            }
        }
        return CommandLineError(.serverUnreachable, "cannot reach \(at): \(error)")
    }
}
