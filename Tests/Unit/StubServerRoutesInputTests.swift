import Foundation
import POIDomain
import POIServer
import PortableTestSupport
import Testing

/// The query parameters of `GET /locations`, by class and boundary.
///
/// Against places listed farthest first: the server's answer to each kind of value, the parameters given together,
/// and the server-wide fault with a request's own. The routes are a pure function of the request, so no socket is needed (docs/inputs.md lists the cases).
@Suite("GET /locations' parameters, by class and boundary")
struct StubServerRoutesInputTests {
    static let origin = Coordinate(latitude: 0, longitude: 0)
    static let near = PointOfInterest(name: "Near", coordinate: Coordinate(latitude: 0, longitude: 0.001))
    static let middle = PointOfInterest(name: "Middle", coordinate: Coordinate(latitude: 0, longitude: 0.002))
    static let far = PointOfInterest(name: "Far", coordinate: Coordinate(latitude: 0, longitude: 0.01))
    static let unplaced = PointOfInterest(name: "Unplaced")
    /// Listed farthest first, so that an answer in the listed order is seen; the one without a position first of all.
    static let places = [unplaced, far, middle, near]
    /// How far the nearest place is from the origin, in metres: the radius that just reaches it.
    static let nearMeters = origin.distance(to: near.coordinate!).meters

    /// What the server must answer: these places, by name and in this order, or this status.
    enum Answer: Sendable, Equatable {
        case places([String])
        case status(Int)
    }

    /// A query, as `(name, value)` pairs in order, the server-wide fault, and the answer.
    struct Query: Sendable {
        var items: [(String, String)]
        var serverFault: StubServerFault? = nil
        var answer: Answer
    }

    static func query(
        _ input: String, _ kind: InputCase<Query>.Kind, _ label: String, _ items: [(String, String)],
        serverFault: StubServerFault? = nil, _ answer: Answer
    ) -> InputCase<Query> {
        InputCase(input, kind, label, value: Query(items: items, serverFault: serverFault, answer: answer))
    }

    static let all = Answer.places(["Near", "Middle", "Far", "Unplaced"])
    static let position = [("lat", "0"), ("long", "0")]

    static let latitudeCases = [
        query("/locations?lat", .valid, "0", position, all),
        query("/locations?lat", .boundary, "90", [("lat", "90"), ("long", "0")], .status(200)),
        query("/locations?lat", .boundary, "-90", [("lat", "-90"), ("long", "0")], .status(200)),
        query("/locations?lat", .boundary, "90.000001", [("lat", "90.000001"), ("long", "0")], .status(400)),
        query("/locations?lat", .boundary, "-90.000001", [("lat", "-90.000001"), ("long", "0")], .status(400)),
        query("/locations?lat", .invalid, "a word", [("lat", "north"), ("long", "0")], .status(400)),
        query("/locations?lat", .invalid, "missing", [("long", "0")], .status(400)),
        query("/locations?lat", .invalid, "given twice", [("lat", "0"), ("lat", "1"), ("long", "0")], .status(400)),
        query("/locations?lat", .empty, "lat=", [("lat", ""), ("long", "0")], .status(400)),
        query("/locations?lat", .huge, "1e400, past a Double", [("lat", "1e400"), ("long", "0")], .status(400)),
        query("/locations?lat", .invalid, "hexadecimal, 0x10", [("lat", "0x10"), ("long", "0")], .status(400)),
        query("/locations?lat", .boundary, "-0, negative zero: the equator", [("lat", "-0"), ("long", "0")], all),
        query("/locations?lat", .separator, "0,0", [("lat", "0,0"), ("long", "0")], .status(400)),
    ]

    static let longitudeCases = [
        query("/locations?long", .valid, "0", position, all),
        query(
            "/locations?long", .valid, "negative, -0.001", [("lat", "0"), ("long", "-0.001")],
            .places(["Near", "Middle", "Far", "Unplaced"])),
        query(
            "/locations?long", .boundary, "180", [("lat", "0"), ("long", "180")],
            .places(["Far", "Middle", "Near", "Unplaced"])),
        query("/locations?long", .boundary, "180.000001", [("lat", "0"), ("long", "180.000001")], .status(400)),
        query("/locations?long", .boundary, "-180.000001", [("lat", "0"), ("long", "-180.000001")], .status(400)),
        query("/locations?long", .invalid, "nan", [("lat", "0"), ("long", "nan")], .status(400)),
        query("/locations?long", .invalid, "missing", [("lat", "0")], .status(400)),
        query("/locations?long", .empty, "long=", [("lat", "0"), ("long", "")], .status(400)),
        query("/locations?long", .huge, "-1e308", [("lat", "0"), ("long", "-1e308")], .status(400)),
        query("/locations?long", .huge, "-1e400, past a Double", [("lat", "0"), ("long", "-1e400")], .status(400)),
        query("/locations?long", .invalid, "hexadecimal, 0x1p3", [("lat", "0"), ("long", "0x1p3")], .status(400)),
        query("/locations?long", .separator, "0;0", [("lat", "0"), ("long", "0;0")], .status(400)),
    ]

    static let radiusCases = [
        query(
            "/locations?radius", .valid, "250 m: the two within it, nearer first, none without a position",
            position + [("radius", "250")], .places(["Near", "Middle"])),
        query(
            "/locations?radius", .valid, "a fraction of a metre more than the nearest",
            position + [("radius", "\(nearMeters + 0.5)")], .places(["Near"])),
        query(
            "/locations?radius", .boundary, "exactly the nearest place's distance: it is within",
            position + [("radius", "\(nearMeters)")], .places(["Near"])),
        query(
            "/locations?radius", .boundary, "just under the nearest place's distance: none",
            position + [("radius", "\(nearMeters.nextDown)")], .places([])),
        query("/locations?radius", .boundary, "0", position + [("radius", "0")], .status(400)),
        query("/locations?radius", .invalid, "negative", position + [("radius", "-5")], .status(400)),
        query("/locations?radius", .invalid, "infinity", position + [("radius", "inf")], .status(400)),
        query("/locations?radius", .boundary, "-0, negative zero", position + [("radius", "-0")], .status(400)),
        query(
            "/locations?radius", .boundary, "1e-400, more than 0 and under the least Double: only places right there",
            position + [("radius", "1e-400")], .places([])),
        query("/locations?radius", .empty, "radius=", position + [("radius", "")], .status(400)),
        query(
            "/locations?radius", .huge, "1e300: every place with a position", position + [("radius", "1e300")],
            .places(["Near", "Middle", "Far"])),
        query(
            "/locations?radius", .huge, "1e400, past a Double: every place with a position",
            position + [("radius", "1e400")], .places(["Near", "Middle", "Far"])),
        query("/locations?radius", .separator, "100,200", position + [("radius", "100,200")], .status(400)),
        query(
            "/locations?radius", .pair, "with limit 1: the nearest within it",
            position + [("radius", "250"), ("limit", "1")], .places(["Near"])),
    ]

    static let limitCases = [
        query("/locations?limit", .valid, "2", position + [("limit", "2")], .places(["Near", "Middle"])),
        query("/locations?limit", .boundary, "1, the least", position + [("limit", "1")], .places(["Near"])),
        query("/locations?limit", .boundary, "4, as many as there are places", position + [("limit", "4")], all),
        query("/locations?limit", .boundary, "5, more than there are places", position + [("limit", "5")], all),
        query("/locations?limit", .boundary, "Int.max", position + [("limit", "9223372036854775807")], all),
        query("/locations?limit", .boundary, "0", position + [("limit", "0")], .status(400)),
        query("/locations?limit", .boundary, "-0, negative zero", position + [("limit", "-0")], .status(400)),
        query(
            "/locations?limit", .valid, "+2, with its sign", position + [("limit", "+2")], .places(["Near", "Middle"])),
        query("/locations?limit", .invalid, "a fraction, 1.5", position + [("limit", "1.5")], .status(400)),
        query(
            "/locations?limit", .invalid, "a whole number not in digits, 1e3", position + [("limit", "1e3")],
            .status(400)),
        query("/locations?limit", .invalid, "negative", position + [("limit", "-1")], .status(400)),
        query(
            "/locations?limit", .invalid, "negative past Int.min", position + [("limit", "-9223372036854775809")],
            .status(400)),
        query("/locations?limit", .empty, "limit=", position + [("limit", "")], .status(400)),
        query(
            "/locations?limit", .huge, "2^63, past Int.max: every place", position + [("limit", "9223372036854775808")],
            all),
        query("/locations?limit", .huge, "2^64: every place", position + [("limit", "18446744073709551616")], all),
        query(
            "/locations?limit", .huge, "27 digits, the fuzzer's: every place",
            position + [("limit", "456529149269160342363045888")], all),
        query(
            "/locations?limit", .huge, "27 digits with a radius: the places within it",
            position + [("limit", "456529149269160342363045888"), ("radius", "250")], .places(["Near", "Middle"])),
        query(
            "/locations?limit", .separator, "1&2, one value holding '&'", position + [("limit", "1&2")], .status(400)),
        query(
            "/locations?limit", .pair, "before the radius", position + [("limit", "3"), ("radius", "250")],
            .places(["Near", "Middle"])),
    ]

    static let faultCases = [
        query("/locations?fault", .valid, "500", position + [("fault", "500")], .status(500)),
        query("/locations?fault", .valid, "not-json: 200 with text", position + [("fault", "not-json")], .status(200)),
        query("/locations?fault", .invalid, "a name it does not have", position + [("fault", "teapot")], .status(400)),
        query("/locations?fault", .empty, "fault=", position + [("fault", "")], .status(400)),
        query("/locations?fault", .separator, "two names, 500,drop", position + [("fault", "500,drop")], .status(400)),
        query(
            "/locations?fault", .pair, "the request's 500 over the server's not-json", position + [("fault", "500")],
            serverFault: .notJSON, .status(500)),
        query(
            "/locations?fault", .pair, "the request's not-json over the server's 500",
            position + [("fault", "not-json")], serverFault: .serverError, .status(200)),
        query(
            "/locations?fault", .pair, "none in the request: the server's 500", position, serverFault: .serverError,
            .status(500)),
        query(
            "/locations?fault", .pair, "a request's bad name with the server's fault: 400", position + [("fault", "x")],
            serverFault: .serverError, .status(400)),
        query(
            "/locations?fault", .invalid, "given twice", position + [("fault", "500"), ("fault", "500")], .status(400)),
    ]

    @Test(
        "GET /locations: each parameter, by class and boundary",
        arguments: latitudeCases + longitudeCases + radiusCases + limitCases + faultCases
    )
    func locations(_ input: InputCase<Query>) throws {
        let routes = StubServerRoutes(places: Self.places, fault: input.value.serverFault)
        let request = HTTPRequest(
            method: "GET", path: "/locations",
            query: input.value.items.map { URLQueryItem(name: $0.0, value: $0.1) })
        guard case .respond(let response) = routes.reply(to: request) else {
            Issue.record("expected an answer at once")
            return
        }
        switch input.value.answer {
        case .status(let status):
            #expect(response.status == status)
            if status == 400 {
                let error = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                #expect((error?["error"] as? String)?.isEmpty == false, "a 400 says why")
            }
        case .places(let names):
            #expect(response.status == 200)
            let places = try JSONDecoder().decode([PointOfInterest].self, from: response.body)
            #expect(places.map(\.name) == names)
        }
    }
}
