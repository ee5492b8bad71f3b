import Foundation
import POIDomain
import POIServer
import Testing

/// What the stub server answers, without sockets: the routing is a pure function of the request.
@Suite("StubServerRoutes")
struct StubServerRoutesTests {
    static let routes = StubServerRoutes(places: PointOfInterest.sanJose)

    static func request(_ path: String, _ query: [String: String] = [:], method: String = "GET") -> HTTPRequest {
        HTTPRequest(
            method: method,
            path: path,
            query: query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) },
            headers: [:]
        )
    }

    static func response(_ reply: StubServerRoutes.Reply) -> HTTPResponse? {
        if case .respond(let response) = reply { response } else { nil }
    }

    static func places(_ reply: StubServerRoutes.Reply) throws -> [PointOfInterest] {
        let answer = try #require(Self.response(reply))
        #expect(answer.status == 200)
        return try JSONDecoder().decode([PointOfInterest].self, from: answer.body)
    }

    /// A place as `/locations` lists it, as far as `everyPlaceListed` reads it: its name (every field of a place is
    /// read by the tests of the few places above; 10,000 whole places decoded would make the test four times slower).
    struct Named: Decodable {
        var name: String
    }

    /// The huge class of the places a server is given (docs/inputs.md: 10,000, as poi-server's `--data` reads them
    /// in `ServerCommandInputTests.dataFiles`): every one listed, none cut by a cap the API does not have, those
    /// without a position by name.
    @Test("/locations lists every one of 10,000 places, by name when none has a position")
    func everyPlaceListed() throws {
        let places = (1...10_000).map { PointOfInterest(name: "P\($0)") }
        let reply = StubServerRoutes(places: places).reply(to: Self.request("/locations", ["lat": "0", "long": "0"]))
        let answer = try #require(Self.response(reply))
        #expect(answer.status == 200)
        let names = try JSONDecoder().decode([Named].self, from: answer.body).map(\.name)
        #expect(names == places.map(\.name).sorted())
    }

    @Test("/locations lists the places nearest first")
    func locations() throws {
        let places = try Self.places(
            Self.routes.reply(to: Self.request("/locations", ["lat": "37.3293", "long": "-121.8893"])))
        #expect(places.count == PointOfInterest.sanJose.count)
        #expect(places.first?.name == "San Jose McEnery Convention Center")
        #expect(places.last?.name == "Winchester Mystery House")
    }

    @Test("Not nearest first: the places in the order listed, radius and limit applied in that order")
    func listedOrder() throws {
        var routes = StubServerRoutes(places: Array(PointOfInterest.sanJose.reversed()))
        routes.nearestFirst = false
        let query = ["lat": "37.3293", "long": "-121.8893"]
        let all = try Self.places(routes.reply(to: Self.request("/locations", query)))
        #expect(all.map(\.name) == PointOfInterest.sanJose.reversed().map(\.name))
        var limited = query
        limited["limit"] = "2"
        let two = try Self.places(routes.reply(to: Self.request("/locations", limited)))
        #expect(two.map(\.name) == Array(PointOfInterest.sanJose.reversed().prefix(2)).map(\.name))
        var near = query
        near["radius"] = "300"
        let within = try Self.places(routes.reply(to: Self.request("/locations", near)))
        let nearest = [
            "San Jose McEnery Convention Center", "Center for the Performing Arts",
            "San Jose Museum of Quilts & Textiles", "The Tech Interactive",
        ]
        #expect(within.map(\.name) == PointOfInterest.sanJose.reversed().map(\.name).filter(nearest.contains))
        #expect(within.map(\.name) != nearest)
    }

    @Test("radius and limit narrow the list")
    func radiusAndLimit() throws {
        let near = try Self.places(
            Self.routes.reply(to: Self.request("/locations", ["lat": "37.3293", "long": "-121.8893", "radius": "300"]))
        )
        #expect(
            near.map(\.name) == [
                "San Jose McEnery Convention Center", "Center for the Performing Arts",
                "San Jose Museum of Quilts & Textiles", "The Tech Interactive",
            ])
        let two = try Self.places(
            Self.routes.reply(to: Self.request("/locations", ["lat": "37.3293", "long": "-121.8893", "limit": "2"]))
        )
        #expect(two.count == 2)
    }

    @Test("The radius includes a place exactly that far away, and excludes places without a position")
    func radiusBoundary() throws {
        let here = Coordinate(latitude: 37.3293, longitude: -121.8893)
        let there = Coordinate(latitude: 37.3319, longitude: -121.8890)
        let places = [
            PointOfInterest(name: "Here", coordinate: here), PointOfInterest(name: "There", coordinate: there),
            PointOfInterest(name: "Nowhere"),
        ]
        let routes = StubServerRoutes(places: places)
        let meters = here.distance(to: there).meters
        func names(radius: Double?) throws -> [String] {
            var query = ["lat": "\(here.latitude)", "long": "\(here.longitude)"]
            query["radius"] = radius.map { "\($0)" }
            return try Self.places(routes.reply(to: Self.request("/locations", query))).map(\.name)
        }
        #expect(try names(radius: meters) == ["Here", "There"])
        #expect(try names(radius: meters.nextDown) == ["Here"])
        #expect(try names(radius: 0.5) == ["Here"])
        #expect(try names(radius: nil) == ["Here", "There", "Nowhere"])
    }

    @Test(
        "Missing or invalid parameters are 400 with a JSON error that names them",
        arguments: [
            ([:], "lat is missing"),
            (["lat": "1"], "long is missing"),
            (["lat": "north", "long": "1"], "lat 'north' is not a number"),
            (["lat": "1", "long": "1e999"], "invalid coordinate: longitude inf is outside -180...180"),
            (["lat": "100", "long": "1"], "invalid coordinate: latitude 100.0 is outside -90...90"),
            (["lat": "1", "long": "1", "radius": "-5"], "radius '-5' is not a positive number of metres"),
            (["lat": "1", "long": "1", "radius": "0"], "radius '0' is not a positive number of metres"),
            (
                ["lat": "1", "long": "1", "limit": "0"],
                "limit '0' is not a whole number of at least 1, written in digits"
            ),
            (
                ["lat": "1", "long": "1", "fault": "fire"],
                "fault must be one of 500, not-json, slow, drop, stall, not 'fire'"
            ),
            (["lat": "nan", "long": "1"], "lat 'nan' is not a number"),
            (["lat": "", "long": "1"], "lat '' is not a number"),
            (["lat": "1", "long": "1", "radius": "inf"], "radius 'inf' is not a positive number of metres"),
            (
                ["lat": "1", "long": "1", "limit": "1.5"],
                "limit '1.5' is not a whole number of at least 1, written in digits"
            ),
            (
                ["lat": "1", "long": "1", "latitude": "2"],
                "unknown parameter 'latitude'; /locations takes lat, long, radius and limit"
            ),
        ] as [(KeyValuePairs<String, String>, String)]
    )
    func badRequest(query: KeyValuePairs<String, String>, message: String) throws {
        // KeyValuePairs, not a Dictionary: a case is named by its arguments, and a Dictionary's description lists
        // its keys in an order that changes from one process to the next (so would the case's name, in every report).
        let parameters = Dictionary(uniqueKeysWithValues: query.map { ($0.key, $0.value) })
        let response = try #require(Self.response(Self.routes.reply(to: Self.request("/locations", parameters))))
        #expect(response.status == 400)
        struct ErrorBody: Decodable {
            var error: String
            var status: Int
        }
        let body = try JSONDecoder().decode(ErrorBody.self, from: response.body)
        #expect(body.error == message)
        #expect(body.status == 400)
    }

    @Test(
        "A parameter given twice, or given without a value, is 400: the query must read one way only",
        arguments: [
            ([("lat", "1"), ("long", "2"), ("lat", "3")], "lat is given twice"),
            ([("lat", "1"), ("long", "2"), ("limit", "1"), ("limit", "1")], "limit is given twice"),
            ([("lat", nil), ("long", "2")], "lat '' is not a number"),
        ] as [([(String, String?)], String)]
    )
    func ambiguousQuery(items: [(String, String?)], message: String) throws {
        let request = HTTPRequest(
            method: "GET", path: "/locations", query: items.map { URLQueryItem(name: $0.0, value: $0.1) })
        let response = try #require(Self.response(Self.routes.reply(to: request)))
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"\#(message)","status":400}"#)
    }

    @Test("Unknown paths are 404, other methods 405 with Allow")
    func notFoundAndMethod() throws {
        #expect(Self.response(Self.routes.reply(to: Self.request("/nope")))?.status == 404)
        let post = try #require(Self.response(Self.routes.reply(to: Self.request("/locations", method: "POST"))))
        #expect(post.status == 405)
        #expect(post.headers.contains { $0 == ("Allow", "GET, HEAD") })
        #expect(Self.response(Self.routes.reply(to: Self.request("/health", method: "DELETE")))?.status == 405)
    }

    @Test("The health endpoint says ok and how many places there are")
    func health() throws {
        let response = try #require(Self.response(Self.routes.reply(to: Self.request("/health"))))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"places":22,"status":"ok"}"#)
    }

    @Test("Each fault, for the whole server or for one request")
    func faults() throws {
        let query = ["lat": "37.3293", "long": "-121.8893"]
        var faulty = Self.routes
        faulty.fault = .serverError
        #expect(Self.response(faulty.reply(to: Self.request("/locations", query)))?.status == 500)
        #expect(Self.response(faulty.reply(to: Self.request("/health")))?.status == 200, "health stays healthy")
        // Given when the routes are made, as poi-server --fault gives it: every /locations request has it.
        let madeFaulty = StubServerRoutes(places: PointOfInterest.sanJose, fault: .serverError)
        #expect(Self.response(madeFaulty.reply(to: Self.request("/locations", query)))?.status == 500)

        let notJSON = try #require(
            Self.response(
                Self.routes.reply(to: Self.request("/locations", query.merging(["fault": "not-json"]) { $1 }))))
        #expect(notJSON.status == 200)
        #expect((try? JSONSerialization.jsonObject(with: notJSON.body)) == nil)
        let dropped = Self.routes.reply(to: Self.request("/locations", query.merging(["fault": "drop"]) { $1 }))
        #expect({ if case .drop = dropped { true } else { false } }())
        guard
            case .respondAfter(let delay, let response) = Self.routes.reply(
                to: Self.request("/locations", query.merging(["fault": "slow"]) { $1 }))
        else {
            Issue.record("expected a delayed answer")
            return
        }
        #expect(delay == .seconds(2))
        #expect(response.status == 200)
        guard
            case .stallMidway(let stall, let stalled) = Self.routes.reply(
                to: Self.request("/locations", query.merging(["fault": "stall"]) { $1 }))
        else {
            Issue.record("expected an answer that stalls midway")
            return
        }
        #expect(stall == .seconds(2))
        #expect(stalled.status == 200)
        #expect(stalled.body == response.body, "the listing, as the slow fault sends it")
    }
}
