import Foundation
import POIDomain
import POILocation
import POINetworking
import POIServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `poi nearby`: the places near a position, nearest first, through the same networking stack as the app.
struct NearbyCommand {
    let arguments: [String]
    let environment: [String: String]

    @MainActor
    func run(output: @Sendable (String) -> Void) async throws(CommandLineError) {
        let parsed = try ParsedArguments.parse(
            arguments,
            command: "nearby",
            valueOptions: ["lat", "long", "limit", "server", "timeout"],
            flags: ["json"]
        )
        if let extra = parsed.positional.first {
            throw .usage("unexpected argument '\(extra)'", command: "nearby")
        }
        let limit = try parsed.integer("limit", minimum: 1, command: "nearby")
        let timeout = try parsed.double("timeout", command: "nearby") ?? 10
        guard timeout > 0 else { throw .usage("--timeout must be more than 0 seconds", command: "nearby") }
        let serverURL = try Self.serverURL(parsed.values["server"] ?? environment["POI_SERVER_URL"])
        let position = try await position(parsed)

        let places: [PointOfInterest]
        if let serverURL {
            places = try await Self.load(near: position, from: serverURL, timeout: timeout)
        } else {
            // No server given: start the package's server in-process, so that a fresh clone works offline.
            let server: StubServer
            do {
                server = try StubServer()
            } catch {
                throw CommandLineError(.serverUnreachable, "cannot start the built-in server: \(error)")
            }
            defer { server.stop() }
            places = try await Self.load(near: position, from: server.url, timeout: timeout)
        }

        let list = PointsOfInterestListModel(
            notificationCenter: NotificationCenter(), places: places, position: position)
        let rows = limit.map { Array(list.rows.prefix($0)) } ?? list.rows
        let report = NearbyReport(position: position, rows: rows)
        if parsed.flags.contains("json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            output(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
        } else {
            output(report.text)
        }
    }

    /// The position from `--lat`/`--long`, or from gpsd when neither is given.
    private func position(_ parsed: ParsedArguments) async throws(CommandLineError) -> Coordinate {
        let latitude = try parsed.double("lat", command: "nearby")
        let longitude = try parsed.double("long", command: "nearby")
        switch (latitude, longitude) {
        case (let latitude?, let longitude?):
            let position = Coordinate(latitude: latitude, longitude: longitude)
            do {
                try position.validate()
            } catch {
                throw CommandLineError(
                    .invalidCoordinate, "invalid coordinate: \(error); latitude is -90...90, longitude -180...180")
            }
            return position
        case (nil, nil):
            return try await locateWithGPSD()
        default:
            throw .usage("--lat and --long go together", command: "nearby")
        }
    }

    /// Asks gpsd (`POI_GPSD_HOST`, `POI_GPSD_PORT`, default 127.0.0.1:2947) through `CurrentLocationProvider`.
    private func locateWithGPSD() async throws(CommandLineError) -> Coordinate {
        let host = environment["POI_GPSD_HOST"] ?? "127.0.0.1"
        var port = GPSDLocationFetcher.defaultPort
        if let text = environment["POI_GPSD_PORT"] {
            guard let value = UInt16(text), value > 0 else {
                throw .usage("POI_GPSD_PORT must be a port number, not '\(text)'", command: "nearby")
            }
            port = value
        }
        let provider = CurrentLocationProvider(
            locationFetcher: GPSDLocationFetcher(host: host, port: port),
            notificationCenter: NotificationCenter()
        )
        let result = await withCheckedContinuation { continuation in
            provider.locateCurrentPosition { continuation.resume(returning: $0) }
        }
        switch result {
        case .success(let position):
            return position
        case .failure(let error):
            throw CommandLineError(.noLocation, "no location: \(error)")
        }
    }

    /// The `--server` URL: http or https with a host; `nil` when none was given.
    static func serverURL(_ text: String?) throws(CommandLineError) -> URL? {
        guard let text, !text.isEmpty else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else {
            throw .usage(
                "--server must be an http or https URL such as http://127.0.0.1:8080, not '\(text)'", command: "nearby")
        }
        return url
    }

    /// Loads the places near `position` from the server at `url`.
    static func load(near position: Coordinate, from url: URL, timeout: Double) async throws(CommandLineError)
        -> [PointOfInterest]
    {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let loader = APIRequestLoader(apiRequest: PointsOfInterestRequest(baseURL: url), urlSession: session)
        do {
            return try await loader.loadAPIRequest(requestData: position)
        } catch {
            throw commandLineError(for: error, server: url, timeout: timeout)
        }
    }

    /// The message and exit status for a failed load.
    static func commandLineError(for error: any Error, server: URL, timeout: Double) -> CommandLineError {
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
                return CommandLineError(.timeout, "\(at) did not answer within \(timeout) seconds (raise --timeout)")
            case .networkConnectionLost, .badServerResponse, .zeroByteResource:
                return CommandLineError(.serverUnreachable, "\(at) closed the connection without answering")
            default:
                return CommandLineError(
                    .serverUnreachable,
                    "cannot reach \(at) (\(error.localizedDescription)): is it running? check --server or POI_SERVER_URL"
                )
            }
        }
        return CommandLineError(.serverUnreachable, "cannot reach \(at): \(error)")
    }
}
