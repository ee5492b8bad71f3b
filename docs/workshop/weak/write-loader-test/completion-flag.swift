// verify: hangs under "the data task is never started"
// verify: lets through "the request sends the longitude as its latitude"
// verify: lets through "the request sends the longitude rounded to whole degrees"
// verify: lets through "the loader parses an empty list instead of the server's answer"
// verify: lets through "the last place of the answer is dropped"
import Foundation
import POIDomain
import POINetworking
import PortableTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Known weak: it asserts, but only that the completion handler was called with no error.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-loader-test"), WorkshopSwitch.reason("write-loader-test")))
struct WriteLoaderTests {
    @Test func completionIsCalledWithoutError() async throws {
        let answer: MockURLProtocol.RequestHandler = { request in
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
            return (response, Data(#"[{"name":"A"}]"#.utf8))
        }
        let failed = await MockURLProtocol.withStub(answer) { stub in
            let loader = APIRequestLoader(
                apiRequest: PointsOfInterestRequest(baseURL: stub.baseURL), urlSession: stub.session)
            return await withCheckedContinuation { continuation in
                loader.loadAPIRequest(requestData: Coordinate(latitude: 37.3293, longitude: -121.8893)) { _, error in
                    continuation.resume(returning: error != nil)
                }
            }
        }
        #expect(!failed)
    }
}
