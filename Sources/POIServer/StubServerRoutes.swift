import Foundation
public import POIDomain

/// What the stub server answers to a request: a pure function of the request and the dataset, so that the unit
/// tier tests it without sockets.
public struct StubServerRoutes: Sendable {
    /// What the connection handler must do.
    public enum Reply: Sendable {
        /// Send this response.
        case respond(HTTPResponse)
        /// Wait `delay`, then send this response.
        case respondAfter(Duration, HTTPResponse)
        /// Close the connection without answering.
        case drop
        /// Send the head and half the body of this response, wait `delay`, then send the rest.
        case stallMidway(Duration, HTTPResponse)
    }

    /// The places the server lists.
    public var places: [PointOfInterest]
    /// A fault for every `/locations` request, unless a request names its own.
    public var fault: StubServerFault?
    /// How long the `slow` fault waits.
    public var slowDelay: Duration
    /// Whether the list comes nearest first, or in the order of `places`.
    ///
    /// The talk's server promises no order, and a client that cuts the list before it sorts it shows the wrong
    /// places: only a server that does not sort tells such a client apart (`POICommandIntegrationTests`).
    public var nearestFirst = true

    /// How long the `slow` fault waits unless told otherwise.
    public static let defaultSlowDelay: Duration = .seconds(2)

    /// Creates the routes.
    public init(
        places: [PointOfInterest],
        fault: StubServerFault? = nil,
        slowDelay: Duration = StubServerRoutes.defaultSlowDelay
    ) {
        self.places = places
        self.fault = fault
        self.slowDelay = slowDelay
    }

    /// The reply to `request`.
    public func reply(to request: HTTPRequest) -> Reply {
        switch request.path {
        case "/health":
            guard ["GET", "HEAD"].contains(request.method) else { return methodNotAllowed(request) }
            return .respond(.json(Health(status: "ok", places: places.count)))
        case "/locations":
            guard ["GET", "HEAD"].contains(request.method) else { return methodNotAllowed(request) }
            return locations(request)
        default:
            return .respond(.error(404, "no such path: \(request.path) (try /locations?lat=37.3293&long=-121.8893)"))
        }
    }

    private func methodNotAllowed(_ request: HTTPRequest) -> Reply {
        var response = HTTPResponse.error(405, "\(request.method) is not allowed on \(request.path); use GET")
        response.headers.append(("Allow", "GET, HEAD"))
        return .respond(response)
    }

    private func locations(_ request: HTTPRequest) -> Reply {
        if let problem = Self.unacceptableParameters(request.query) {
            return .respond(.error(400, problem))
        }
        var fault = self.fault
        if let name = request.queryValue("fault") {
            guard let requested = StubServerFault(rawValue: name) else {
                return .respond(.error(400, "fault must be one of \(StubServerFault.names), not '\(name)'"))
            }
            fault = requested
        }
        let listing: HTTPResponse
        switch parseQuery(request) {
        case .failure(let message):
            return .respond(.error(400, message.text))
        case .success(let query):
            listing = .json(nearby(query))
        }
        switch fault {
        case nil: return .respond(listing)
        case .serverError:
            let page =
                "<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>"
            return .respond(HTTPResponse(status: 500, headers: [("Content-Type", "text/html")], body: Data(page.utf8)))
        case .notJSON:
            return .respond(
                HTTPResponse(
                    status: 200, headers: [("Content-Type", "text/plain")], body: Data("this is not JSON\n".utf8))
            )
        case .slow: return .respondAfter(slowDelay, listing)
        case .drop: return .drop
        case .stall: return .stallMidway(slowDelay, listing)
        }
    }

    /// The parameters `/locations` takes: the API's four, and `fault`, the test-only one that stays out of the
    /// API's contract (docs/api/openapi.json).
    static let locationParameters = ["lat", "long", "radius", "limit", "fault"]

    /// Why the parameters cannot be read one way only: one the API does not have, or one given twice.
    static func unacceptableParameters(_ query: [URLQueryItem]) -> String? {
        var seen: Set<String> = []
        for item in query {
            guard locationParameters.contains(item.name) else {
                return "unknown parameter '\(item.name)'; /locations takes lat, long, radius and limit"
            }
            guard seen.insert(item.name).inserted else { return "\(item.name) is given twice" }
        }
        return nil
    }

    private struct Health: Encodable {
        var status: String
        var places: Int
    }

    private struct Query {
        var position: Coordinate
        var radius: Double?
        var limit: Int?
    }

    private struct Message: Error {
        var text: String
    }

    private func parseQuery(_ request: HTTPRequest) -> Result<Query, Message> {
        guard let latitudeText = request.queryValue("lat") else { return .failure(Message(text: "lat is missing")) }
        guard let longitudeText = request.queryValue("long") else {
            return .failure(Message(text: "long is missing"))
        }
        // A decimal numeral, as the contract's numbers are written: not `inf`, `nan` or `0x10`, which Double(_:) reads.
        // One past a Double reads as infinity, outside the range like any other past it.
        guard let latitude = Numeral.double(latitudeText) else {
            return .failure(Message(text: "lat '\(latitudeText)' is not a number"))
        }
        guard let longitude = Numeral.double(longitudeText) else {
            return .failure(Message(text: "long '\(longitudeText)' is not a number"))
        }
        let position = Coordinate(latitude: latitude, longitude: longitude)
        do {
            try position.validate()
        } catch {
            return .failure(Message(text: error.message))
        }
        var query = Query(position: position)
        if let radiusText = request.queryValue("radius") {
            // Any positive numeral: one past a Double (1e400) reads as infinity, every place with a position; one under
            // the least Double (1e-400) as 0, the places at the position itself, as no distance lies between them.
            guard let radius = Numeral.double(radiusText), Numeral.isPositive(radiusText) else {
                return .failure(Message(text: "radius '\(radiusText)' is not a positive number of metres"))
            }
            query.radius = radius
        }
        if let limitText = request.queryValue("limit") {
            // A whole number of any size: one past Int.max reads as Int.max, more places than any server has.
            guard let limit = Numeral.wholeNumber(limitText), limit >= 1 else {
                let problem = "is not a whole number of at least 1, written in digits"
                return .failure(Message(text: "limit '\(limitText)' \(problem)"))
            }
            query.limit = limit
        }
        return .success(query)
    }

    /// The places within the radius, nearest first, at most `limit` of them; without a radius, places without a
    /// position come last; in the order of `places` instead when `nearestFirst` is off.
    private func nearby(_ query: Query) -> [PointOfInterest] {
        let listed = places.map { NearbyPlace(place: $0, distance: $0.distance(from: query.position)) }
        let ordered = nearestFirst ? places.nearestFirst(from: query.position) : listed
        let within = ordered.filter { nearby in
            query.radius.map { radius in nearby.distance.map { $0.meters <= radius } ?? false } ?? true
        }
        return within.prefix(query.limit ?? within.count).map(\.place)
    }
}
