import Foundation
import POIDomain
import POINetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Contract tests: the app's own networking stack against a real server, without any UI in the way.
///
/// The talk's tip (WWDC 2018 session 417, end of "Testing network requests"): most end-to-end tests run against
/// a mock server whose data the test controls, and a few call the networking code directly against the real
/// server, to check that it accepts the app's requests and that the app can parse its answers. Set
/// `POI_SERVER_URL` to the server's base URL to run them; without it they are skipped and say why.
/// The server named by `POI_SERVER_URL`, if any.
private let contractServerURL = ProcessInfo.processInfo.environment["POI_SERVER_URL"].flatMap(URL.init(string:))

@Suite(
    "Server contract",
    .enabled(
        if: contractServerURL != nil,
        "POI_SERVER_URL is not set: set it to a server's base URL (for example http://127.0.0.1:8080) to run these"
    )
)
struct ServerContractTests {
    static func loader() throws -> APIRequestLoader<PointsOfInterestRequest> {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.urlCache = nil
        let serverURL = try #require(contractServerURL)
        return APIRequestLoader(
            apiRequest: PointsOfInterestRequest(baseURL: serverURL),
            urlSession: URLSession(configuration: configuration)
        )
    }

    @Test("The server accepts the app's request near the convention center and its answer parses")
    func placesNearConventionCenter() async throws {
        let places = try await Self.loader().loadAPIRequest(
            requestData: Coordinate(latitude: 37.3293, longitude: -121.8893)
        )
        #expect(!places.isEmpty, "a server for this app lists places near the San Jose convention center")
        for place in places {
            #expect(!place.name.isEmpty)
            #expect(place.coordinate?.isValid ?? true, "\(place.name) has an invalid position")
        }
        // docs/api/openapi.json: nearest first, places without a position after the others.
        let position = Coordinate(latitude: 37.3293, longitude: -121.8893)
        let distances = places.map { $0.distance(from: position)?.meters ?? .infinity }
        #expect(distances == distances.sorted(), "the places are not nearest first")
    }

    @Test(
        "A query the contract refuses is a 400 whose JSON names the problem",
        arguments: ["lat=north&long=1", "lat=1", "lat=91&long=1", "lat=1&long=2&lat=3", "lat=1&long=2&latitude=3"]
    )
    func refusedQuery(query: String) async throws {
        struct ErrorBody: Decodable {
            var error: String
            var status: Int
        }
        let base = try #require(contractServerURL)
        let url = try #require(URL(string: base.appendingPathComponent("locations").absoluteString + "?" + query))
        let (data, response) = try await Self.loader().urlSession.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 400)
        let body = try JSONDecoder().decode(ErrorBody.self, from: data)
        #expect(body.status == 400)
        #expect(!body.error.isEmpty)
    }

    @Test(
        "The server answers the boundary coordinates the app may send",
        arguments: [
            Coordinate(latitude: 90, longitude: 180),
            Coordinate(latitude: -90, longitude: -180),
        ])
    func boundaryCoordinates(coordinate: Coordinate) async throws {
        _ = try await Self.loader().loadAPIRequest(requestData: coordinate)
    }
}
