import Foundation
import POIDomain
import POINetworking
import XCTest

/// The XCTest twin of `PointsOfInterestRequestRoundTripTests`, written as the talk writes unit tests: throwing test
/// methods, so that `try` needs no `do`/`catch`.
final class PointsOfInterestRequestXCTests: XCTestCase {
    let request = PointsOfInterestRequest()
    let convention = Coordinate(latitude: 37.3293, longitude: -121.8893)

    func testMakingURLRequest() throws {
        let urlRequest = try request.makeRequest(from: convention)

        let url = try XCTUnwrap(urlRequest.url)
        XCTAssertEqual(url.scheme, "https")
        XCTAssertEqual(url.host, "example.com")
        XCTAssertEqual(url.path, "/locations")
        XCTAssertEqual(url.query, "lat=37.3293&long=-121.8893")
        XCTAssertEqual(urlRequest.httpMethod, "GET")
    }

    func testInjectedBaseURL() throws {
        let server = PointsOfInterestRequest(baseURL: URL(string: "http://127.0.0.1:8080/api/v1")!)
        let url = try server.makeRequest(from: convention).url
        XCTAssertEqual(url?.absoluteString, "http://127.0.0.1:8080/api/v1/locations?lat=37.3293&long=-121.8893")
    }

    func testInvalidCoordinateThrows() {
        let invalid = [
            Coordinate(latitude: .nan, longitude: 0),
            Coordinate(latitude: 0, longitude: .infinity),
            Coordinate(latitude: 90.0001, longitude: 0),
            Coordinate(latitude: 0, longitude: -180.0001),
        ]
        for coordinate in invalid {
            XCTAssertThrowsError(try request.makeRequest(from: coordinate), "\(coordinate)") { error in
                XCTAssertTrue(error is RequestError, "\(coordinate) threw \(error)")
            }
        }
    }

    func testBoundaryCoordinatesAreValid() {
        for coordinate in [Coordinate(latitude: 90, longitude: 180), Coordinate(latitude: -90, longitude: -180)] {
            XCTAssertNoThrow(try request.makeRequest(from: coordinate), "\(coordinate)")
        }
    }

    func testParsingResponse() throws {
        let jsonData = Data(
            #"[{"name": "San Jose Museum of Art", "coordinate": {"latitude": 37.3331, "longitude": -121.8899}}]"#.utf8
        )
        let response = try request.parseResponse(data: jsonData)
        XCTAssertEqual(
            response,
            [
                PointOfInterest(
                    name: "San Jose Museum of Art", coordinate: Coordinate(latitude: 37.3331, longitude: -121.8899))
            ]
        )
    }

    func testParsingEmptyResponse() throws {
        XCTAssertEqual(try request.parseResponse(data: Data("[]".utf8)), [])
    }

    func testParsingMissingNameSaysWhichField() {
        XCTAssertThrowsError(try request.parseResponse(data: Data(#"[{"title": "no name"}]"#.utf8))) { error in
            XCTAssertEqual(
                (error as? APIError)?.description,
                "the server's answer is not the expected JSON: missing key 'name' at [0]"
            )
        }
    }

    func testParsingHTMLIsMalformed() {
        XCTAssertThrowsError(try request.parseResponse(data: Data("<html>oops</html>".utf8))) { error in
            guard case .malformedResponse(let reason) = error as? APIError else {
                return XCTFail("expected malformedResponse, got \(error)")
            }
            XCTAssertTrue(reason.hasPrefix("not valid JSON"), reason)
        }
    }

    func testParsingNonASCIIName() throws {
        let response = try request.parseResponse(data: Data(#"[{"name": "Café Borrone 東京"}]"#.utf8))
        XCTAssertEqual(response.first?.name, "Café Borrone 東京")
    }
}
