// The talk's unit tests for the request type (WWDC 2018 session 417, "Testing network requests"), typed in as
// shown on the slides. Linux adaptations only:
// - `Coordinate` instead of CoreLocation's `CLLocationCoordinate2D`, which does not exist on Linux;
// - the imports of the package's modules.
import POIDomain
import POINetworking
import XCTest

class PointOfInterestRequestTests: XCTestCase {
    let request = PointsOfInterestRequest()

    func testMakingURLRequest() throws {
        let coordinate = Coordinate(latitude: 37.3293, longitude: -121.8893)

        let urlRequest = try request.makeRequest(from: coordinate)

        XCTAssertEqual(urlRequest.url?.scheme, "https")
        XCTAssertEqual(urlRequest.url?.host, "example.com")
        XCTAssertEqual(urlRequest.url?.query, "lat=37.3293&long=-121.8893")
    }

    func testParsingResponse() throws {
        let jsonData = "[{\"name\":\"My Location\"}]".data(using: .utf8)!
        let response = try request.parseResponse(data: jsonData)
        XCTAssertEqual(response, [PointOfInterest(name: "My Location")])
    }
}
