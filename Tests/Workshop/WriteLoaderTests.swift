import Foundation
import POIDomain
import POINetworking
import PortableTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Exercise `write-loader-test` (network, chapter 3): write your test here.
///
/// `scripts/workshop list` gives the task, `scripts/workshop check write-loader-test` judges this file (your test must pass
/// on the code as it is and fail on each of the exercise's hidden mistakes), `scripts/workshop hint write-loader-test` gives one
/// hint at a time. Keep the suite's name; an XCTest class of the same name, skipped unless `POI_WORKSHOP` names
/// the exercise, counts as well.
///
/// What you need, all in PortableTestSupport and POINetworking (chapter 3 shows them at work):
///
///     try await MockURLProtocol.withStub({ request in (HTTPURLResponse, Data) }) { stub in
///         stub.baseURL    // a host of this test's own: PointsOfInterestRequest(baseURL: stub.baseURL)
///         stub.session    // a URLSession whose protocolClasses list MockURLProtocol
///         stub.requests   // the URLRequests the handler answered, in order
///     }
///     APIRequestLoader(apiRequest:urlSession:).loadAPIRequest(requestData:)   // async throws; or with a completion
///     try await withBoundedWait(.seconds(2)) { ... }   // fails after 2 s instead of waiting forever
///
/// An answer the loader parses: `Data(#"[{"name":"A"},{"name":"B"}]"#.utf8)` (a place's "coordinate" is optional).
/// What the request asked for: `stub.requests.first?.url?.query` is `"lat=37.3293&long=-121.8893"` for that
/// coordinate, or read `URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems` one by one.
///
/// In Swift Testing, not the talk's static `MockURLProtocol.requestHandler`: tests run in parallel there, one
/// static handler would answer them all, and setting it records an issue that says so. It is for XCTest, whose
/// tests run one at a time; to write yours in XCTest, replace the suite with:
///
///     final class WriteLoaderTests: XCTestCase {   // import XCTest
///         func testLoads() async throws {
///             try XCTSkipUnless(WorkshopSwitch.isOn("write-loader-test"), "run 'scripts/workshop check write-loader-test'")
///             // Your test: the same calls; XCTAssertEqual instead of #expect.
///         }
///     }
@Suite(.enabled(if: WorkshopSwitch.isOn("write-loader-test"), WorkshopSwitch.reason("write-loader-test")))
struct WriteLoaderTests {
    @Test func yourTest() async throws {
        // Your test.
    }
}
