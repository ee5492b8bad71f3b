// verify: hangs under "the data task is never started"
// verify: lets through "the request sends the longitude as its latitude"
// verify: lets through "the request sends the longitude rounded to whole degrees"
import Foundation
import POIDomain
import POINetworking
import PortableTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Known weak: it checks the places, never the request, so a coordinate sent wrong goes unnoticed.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-loader-test"), WorkshopSwitch.reason("write-loader-test")))
struct WriteLoaderTests {
    @Test func placesArrive() async throws {
        let answer: MockURLProtocol.RequestHandler = { request in
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
            return (response, Data(#"[{"name":"A"},{"name":"B"}]"#.utf8))
        }
        try await MockURLProtocol.withStub(answer) { stub in
            let loader = APIRequestLoader(
                apiRequest: PointsOfInterestRequest(baseURL: stub.baseURL), urlSession: stub.session)
            let places = try await loader.loadAPIRequest(
                requestData: Coordinate(latitude: 37.3293, longitude: -121.8893))
            #expect(places == [PointOfInterest(name: "A"), PointOfInterest(name: "B")])
        }
    }
}
