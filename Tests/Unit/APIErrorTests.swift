import Foundation
import POINetworking
import Testing

/// What a person reads when the server answers with an error status: the status, its meaning, and the start of
/// the body, on one line.
@Suite("APIError")
struct APIErrorTests {
    @Test("An error status shows the first 200 bytes of its body, no more and no fewer, on one line")
    func bodyExcerpt() {
        let body = Data((String(repeating: "x", count: 199) + "y" + "z" + String(repeating: "w", count: 50)).utf8)
        let text = APIError.unacceptableStatusCode(503, body: body).description
        let shown = String(repeating: "x", count: 199) + "y"
        #expect(text == "the server answered HTTP 503 (Service Unavailable): " + shown)

        let lines = Data("<html>\n<body>down</body>\n</html>".utf8)
        #expect(
            APIError.unacceptableStatusCode(500, body: lines).description
                == "the server answered HTTP 500 (Internal Server Error): <html> <body>down</body> </html>")
    }

    @Test("An error status with an empty body shows the status and its meaning only")
    func emptyBody() {
        #expect(
            APIError.unacceptableStatusCode(404, body: Data()).description
                == "the server answered HTTP 404 (Not Found)")
    }
}
