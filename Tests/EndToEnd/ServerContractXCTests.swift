import Foundation
import POIDomain
import POINetworking
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The XCTest twin of `ServerContractTests`: the networking stack against the server named by `POI_SERVER_URL`,
/// skipped with `XCTSkip` and the reason when it is not set.
final class ServerContractXCTests: XCTestCase {
    func testServerAcceptsTheAppsRequestAndItsAnswerParses() async throws {
        // `throw XCTSkip(...)` rather than `XCTSkipIf`, whose skip message starts with "required true value but got false".
        guard let text = ProcessInfo.processInfo.environment["POI_SERVER_URL"] else {
            throw XCTSkip(
                "POI_SERVER_URL is not set: set it to a server's base URL (for example http://127.0.0.1:8080) to run this"
            )
        }
        let serverURL = try XCTUnwrap(URL(string: text))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let loader = APIRequestLoader(
            apiRequest: PointsOfInterestRequest(baseURL: serverURL),
            urlSession: URLSession(configuration: configuration)
        )
        let places = try await loader.loadAPIRequest(requestData: Coordinate(latitude: 37.3293, longitude: -121.8893))
        XCTAssertFalse(places.isEmpty)
        XCTAssertTrue(places.allSatisfy { !$0.name.isEmpty })
    }
}
