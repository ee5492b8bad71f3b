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

/// The request head, by class and boundary, as the server reads it.
///
/// docs/inputs.md lists the cases (scripts/tool inputs).
@Suite("The request head, by class and boundary")
struct HTTPRequestInputTests {

    /// A request head as it arrives, and what the server must read from it: the path and query, or the outcome.
    enum Head: Sendable, Equatable {
        case request(path: String, lat: String?)
        case incomplete
        case invalid
        case tooLarge
    }

    static func head(_ kind: InputCase<(String, Head)>.Kind, _ label: String, _ text: String, _ expected: Head)
        -> InputCase<(String, Head)>
    {
        InputCase("the request head", kind, label, value: (text, expected))
    }

    /// A `GET /health` head of exactly `size` bytes, blank line included.
    static func padded(_ size: Int) -> String {
        let start = "GET /health HTTP/1.1\r\nHost: x\r\nX-Padding: "
        return start + String(repeating: "a", count: size - start.utf8.count - 4) + "\r\n\r\n"
    }

    static let headCases = [
        head(
            .valid, "a GET with a query", "GET /locations?lat=1&long=2 HTTP/1.1\r\nHost: x\r\n\r\n",
            .request(path: "/locations", lat: "1")),
        head(.valid, "bare newlines", "GET /health HTTP/1.0\nHost: x\n\n", .request(path: "/health", lat: nil)),
        head(.boundary, "exactly the limit, 100 bytes", padded(100), .request(path: "/health", lat: nil)),
        head(.boundary, "one byte over the limit", padded(101), .tooLarge),
        head(
            .valid, "a method in lower case, a token (the routes answer it 405)", "get / HTTP/1.1\r\nHost: x\r\n\r\n",
            .request(path: "/", lat: nil)),
        head(.invalid, "a header line with no colon", "GET / HTTP/1.1\r\nHost: x\r\nBroken\r\n\r\n", .invalid),
        head(.invalid, "HTTP/1.1 without a Host", "GET / HTTP/1.1\r\n\r\n", .invalid),
        head(.empty, "nothing yet", "", .incomplete),
        head(.huge, "1,000 bytes with no end", String(repeating: "G", count: 1000), .tooLarge),
        head(
            .separator, "an encoded '&' and '=' in a value", "GET /locations?lat=1%262%3D3 HTTP/1.1\r\nHost: x\r\n\r\n",
            .request(path: "/locations", lat: "1&2=3")),
        head(
            .separator, "a path that starts with //, kept a path", "GET //locations HTTP/1.1\r\nHost: x\r\n\r\n",
            .request(path: "//locations", lat: nil)),
        head(
            .separator, "a header value holding ':'", "GET /health HTTP/1.1\r\nHost: h:8080\r\n\r\n",
            .request(path: "/health", lat: nil)),
    ]

    @Test("The request head: each class, as the server reads it (a limit of 100 bytes)", arguments: headCases)
    func requestHeads(_ input: InputCase<(String, Head)>) {
        let read: Head =
            switch HTTPRequest.parse(Array(input.value.0.utf8), maximumSize: 100) {
            case .complete(let request): .request(path: request.path, lat: request.queryValue("lat"))
            case .incomplete: .incomplete
            case .invalid: .invalid
            case .tooLarge: .tooLarge
            }
        #expect(read == input.value.1)
    }
}
