import Foundation
import POIDomain
import POINetworking
import PortableTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Exercise `write-loader-test`: the reference test.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-loader-test"), WorkshopSwitch.reason("write-loader-test")))
struct WriteLoaderTests {
    @Test func loadsThePlacesOfTheAnswerForTheCoordinateGiven() async throws {
        let answer: MockURLProtocol.RequestHandler = { request in
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
            return (response, Data(#"[{"name":"A"},{"name":"B"}]"#.utf8))
        }
        try await MockURLProtocol.withStub(answer) { stub in
            let loader = APIRequestLoader(
                apiRequest: PointsOfInterestRequest(baseURL: stub.baseURL), urlSession: stub.session)
            // Bounded: when the load never calls back, the test fails after 2 s instead of hanging.
            let places = try await withBoundedWait(.seconds(2)) {
                try await loader.loadAPIRequest(requestData: Coordinate(latitude: 37.3293, longitude: -121.8893))
            }
            #expect(places == [PointOfInterest(name: "A"), PointOfInterest(name: "B")])
            let request = try #require(stub.requests.first)
            #expect(request.url?.query == "lat=37.3293&long=-121.8893")
        }
    }
}
