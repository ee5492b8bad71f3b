import Foundation
import POICommandLine
import POIDomain
import POILocation
import POIServer
import PortableTestSupport
import Testing

@testable import POINetworking
@testable import POIServerCommand

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request's base URL, by class and boundary: the request URL each kind gives.
///
/// docs/inputs.md lists the cases (scripts/tool inputs).
@Suite("A request's base URL, by class and boundary")
struct PointsOfInterestRequestInputTests {

    /// A base URL, and the request URL a `PointsOfInterestRequest` made with it must give.
    static func base(_ kind: InputCase<(String, String)>.Kind, _ label: String, _ base: String, _ expected: String)
        -> InputCase<(String, String)>
    {
        InputCase("PointsOfInterestRequest baseURL", kind, label, value: (base, expected))
    }

    static let baseCases = [
        base(.valid, "a host and a port", "http://127.0.0.1:8080", "http://127.0.0.1:8080/locations?lat=1.5&long=-2.0"),
        base(
            .boundary, "a trailing slash", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/locations?lat=1.5&long=-2.0"
        ),
        base(.valid, "a path", "https://h.example/api/v1", "https://h.example/api/v1/locations?lat=1.5&long=-2.0"),
        base(
            .boundary, "a path with a trailing slash", "https://h.example/api/",
            "https://h.example/api/locations?lat=1.5&long=-2.0"),
        base(
            .separator, "a query of its own, dropped for the request's", "http://h.example/?key=a",
            "http://h.example/locations?lat=1.5&long=-2.0"),
        base(
            .valid, "the default, https://example.com", "https://example.com",
            "https://example.com/locations?lat=1.5&long=-2.0"),
        base(
            .huge, "a 2,000-letter path", "http://h.example/" + String(repeating: "p", count: 2000),
            "http://h.example/" + String(repeating: "p", count: 2000) + "/locations?lat=1.5&long=-2.0"),
        base(.invalid, "a file URL, asked for as it is", "file:///tmp", "file:///tmp/locations?lat=1.5&long=-2.0"),
    ]

    @Test("PointsOfInterestRequest: each class of base URL, and the request URL it gives", arguments: baseCases)
    func baseURLs(_ input: InputCase<(String, String)>) throws {
        let baseURL = try #require(URL(string: input.value.0))
        let request = try PointsOfInterestRequest(baseURL: baseURL)
            .makeRequest(from: Coordinate(latitude: 1.5, longitude: -2))
        #expect(request.url?.absoluteString == input.value.1)
    }
}
