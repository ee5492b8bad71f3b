import Foundation
import POIDomain
import POINetworking
import Testing

/// The Swift Testing twin of `PointsOfInterestRequestXCTests`: the talk's "decompose code for testability",
/// request building and response parsing tested as pure functions, no network.
@Suite("PointsOfInterestRequest")
struct PointsOfInterestRequestRoundTripTests {
    let request = PointsOfInterestRequest()
    let convention = Coordinate(latitude: 37.3293, longitude: -121.8893)

    // MARK: Building the request

    @Test("The request is GET https://example.com/locations with the exact query")
    func makingURLRequest() throws {
        let urlRequest = try request.makeRequest(from: convention)
        let url = try #require(urlRequest.url)
        #expect(url.scheme == "https")
        #expect(url.host == "example.com")
        #expect(url.path == "/locations")
        #expect(url.query == "lat=37.3293&long=-121.8893")
        #expect(urlRequest.httpMethod == "GET")
        #expect(urlRequest.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test("The base URL is injectable, its path kept and its port kept")
    func injectedBaseURL() throws {
        let server = PointsOfInterestRequest(baseURL: URL(string: "http://127.0.0.1:8080/api/v1")!)
        let url = try #require(try server.makeRequest(from: convention).url)
        #expect(url.absoluteString == "http://127.0.0.1:8080/api/v1/locations?lat=37.3293&long=-121.8893")
    }

    @Test(
        "Boundary coordinates make requests, written as Swift prints the numbers",
        arguments: [
            (Coordinate(latitude: 90, longitude: 180), "lat=90.0&long=180.0"),
            (Coordinate(latitude: -90, longitude: -180), "lat=-90.0&long=-180.0"),
            (Coordinate(latitude: 0, longitude: 0), "lat=0.0&long=0.0"),
            (Coordinate(latitude: 1e-7, longitude: -0.5), "lat=1e-07&long=-0.5"),
        ]
    )
    func boundaries(coordinate: Coordinate, query: String) throws {
        #expect(try request.makeRequest(from: coordinate).url?.query == query)
    }

    @Test(
        "Coordinates that are not on Earth are rejected before anything is sent",
        arguments: [
            Coordinate(latitude: .nan, longitude: 0),
            Coordinate(latitude: 0, longitude: .nan),
            Coordinate(latitude: .infinity, longitude: 0),
            Coordinate(latitude: 0, longitude: -.infinity),
            Coordinate(latitude: 90.0001, longitude: 0),
            Coordinate(latitude: -91, longitude: 0),
            Coordinate(latitude: 0, longitude: 180.0001),
            Coordinate(latitude: 0, longitude: -360),
        ]
    )
    func invalidCoordinate(coordinate: Coordinate) {
        let error = #expect(throws: RequestError.self) { try request.makeRequest(from: coordinate) }
        #expect(error?.description.hasPrefix("invalid coordinate: ") == true)
    }

    // MARK: Parsing the response

    @Test("A full answer parses into places with positions and categories")
    func parsingFullResponse() throws {
        let json = """
            [
              {"name": "The Tech Interactive", "coordinate": {"latitude": 37.3316, "longitude": -121.8901},
               "category": "museum"},
              {"name": "Plaza de César Chávez", "coordinate": {"latitude": 37.3318, "longitude": -121.8897},
               "category": "park"}
            ]
            """
        let places = try request.parseResponse(data: Data(json.utf8))
        #expect(
            places == [
                PointOfInterest(
                    name: "The Tech Interactive",
                    coordinate: Coordinate(latitude: 37.3316, longitude: -121.8901),
                    category: .museum
                ),
                PointOfInterest(
                    name: "Plaza de César Chávez",
                    coordinate: Coordinate(latitude: 37.3318, longitude: -121.8897),
                    category: .park
                ),
            ]
        )
    }

    @Test("The talk's answer, names only, parses")
    func parsingNamesOnly() throws {
        let places = try request.parseResponse(data: Data(#"[{"name":"My Location"}]"#.utf8))
        #expect(places == [PointOfInterest(name: "My Location")])
        #expect(places.first?.coordinate == nil)
    }

    @Test("An empty list is no places, not an error")
    func parsingEmpty() throws {
        #expect(try request.parseResponse(data: Data("[]".utf8)).isEmpty)
    }

    @Test("Fields the app does not know are ignored, and unknown categories are kept")
    func parsingExtraFields() throws {
        let json =
            #"[{"name": "SAP Center", "wheelchairAccess": true, "tags": ["arena"], "category": "arena", "id": 7}]"#
        let places = try request.parseResponse(data: Data(json.utf8))
        #expect(places == [PointOfInterest(name: "SAP Center", category: "arena")])
    }

    @Test(
        "Names in any script survive parsing",
        arguments: ["Café Borrone", "東京タワー", "Zürich Hauptbahnhof", "Москва", "🎡 Ferris wheel", "Ōtautahi"]
    )
    func parsingNonASCIINames(name: String) throws {
        let json = try JSONEncoder().encode([["name": name]])
        #expect(try request.parseResponse(data: json) == [PointOfInterest(name: name)])
    }

    @Test(
        "A body that is not the list of places says what was wrong",
        arguments: [
            ("<html><body>Bad Gateway</body></html>", "not valid JSON"),
            ("", "not valid JSON"),
            (#"{"name": "not in a list"}"#, "expected an array"),
            (#"[{"title": "no name"}]"#, "missing key 'name' at [0]"),
            (#"[{"name": "ok"}, {"name": 42}]"#, "expected a string at [1].name"),
            (#"[{"name": null}]"#, "expected a string but found null at [0].name"),
            (#"[{"name": "x", "coordinate": {"latitude": 37.3}}]"#, "missing key 'longitude' at [0].coordinate"),
            (
                #"[{"name": "x", "coordinate": {"latitude": 137.3, "longitude": 0}}]"#,
                "latitude 137.3 is outside -90...90 at [0].coordinate"
            ),
        ]
    )
    func parsingMalformed(body: String, reason: String) {
        let error = #expect(throws: APIError.self) { try request.parseResponse(data: Data(body.utf8)) }
        guard case .malformedResponse(let actual) = error else {
            Issue.record("expected malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(actual.hasPrefix(reason), "reason was: \(actual)")
    }
}
