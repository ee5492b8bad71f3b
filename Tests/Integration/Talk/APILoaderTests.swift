// The talk's integration test for the loader (WWDC 2018 session 417, "Testing network requests"), typed in as
// shown on the slides, with the slides' typos fixed (`MockProtocol`, `inputcoordinate`, the completion's
// parameters). Linux adaptations only:
// - `Coordinate` instead of CoreLocation's `CLLocationCoordinate2D`;
// - `HTTPURLResponse()` has no argument-less initializer in swift-corelibs-foundation, so the stub response is
//   made with `HTTPURLResponse(url:statusCode:httpVersion:headerFields:)`;
// - the imports of the package's modules (`MockURLProtocol` lives in the POITestSupport target).
import POIDomain
import POINetworking
import PortableTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

class APILoaderTests: XCTestCase {
    var loader: APIRequestLoader<PointsOfInterestRequest>!

    override func setUp() {
        let request = PointsOfInterestRequest()

        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [MockURLProtocol.self]
        let urlSession = URLSession(configuration: configuration)

        loader = APIRequestLoader(apiRequest: request, urlSession: urlSession)
    }

    func testLoaderSuccess() {
        let inputCoordinate = Coordinate(latitude: 37.3293, longitude: -121.8893)
        let mockJSONData = "[{\"name\":\"MyPointOfInterest\"}]".data(using: .utf8)!
        MockURLProtocol.requestHandler = { request in
            XCTAssertEqual(request.url?.query?.contains("lat=37.3293"), true)
            return (
                HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!, mockJSONData
            )
        }

        let expectation = XCTestExpectation(description: "response")
        loader.loadAPIRequest(requestData: inputCoordinate) { pointsOfInterest, error in
            XCTAssertEqual(pointsOfInterest, [PointOfInterest(name: "MyPointOfInterest")])
            expectation.fulfill()
        }
        wait(for: [expectation], timeout: 1)
    }
}
