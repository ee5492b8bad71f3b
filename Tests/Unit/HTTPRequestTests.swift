import Foundation
import POIServer
import Testing

/// Reading request heads, as the stub server does before it routes them.
@Suite("HTTPRequest.parse")
struct HTTPRequestTests {
    static func parse(_ text: String) -> HTTPRequest.ParseResult {
        HTTPRequest.parse(Array(text.utf8))
    }

    @Test("A whole GET head gives the method, the decoded path and query, and lower-cased headers")
    func complete() {
        let result = Self.parse(
            "GET /locations?lat=37.3293&long=-121.8893&name=caf%C3%A9 HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n")
        guard case .complete(let request) = result else {
            Issue.record("expected a complete request, got \(result)")
            return
        }
        #expect(request.method == "GET")
        #expect(request.path == "/locations")
        #expect(request.queryValue("lat") == "37.3293")
        #expect(request.queryValue("long") == "-121.8893")
        #expect(request.queryValue("name") == "café")
        #expect(request.headers == ["host": "x", "accept": "*/*"])
    }

    @Test("Bare newlines end a head too, as curl and netcat users type them")
    func bareNewlines() {
        guard case .complete(let request) = Self.parse("GET /health HTTP/1.0\nHost: x\n\n") else {
            Issue.record("expected a complete request")
            return
        }
        #expect(request.path == "/health")
    }

    @Test(
        "Parts of a head ask for more bytes",
        arguments: [
            "", "GET /hea", "GET /health HTTP/1.1\r\n", "GET /health HTTP/1.1\r\nHost: x\r\n",
            // A read that ends between the blank line's CR and LF, and a CR followed by something else.
            "GET /health HTTP/1.1\r\nHost: x\r\n\r", "GET /health HTTP/1.1\r\nHost: x\r\n\rX",
        ])
    func incomplete(text: String) {
        #expect(Self.parse(text) == .incomplete)
    }

    @Test(
        "What is not an HTTP request is rejected as soon as the first line shows it",
        arguments: [
            ("HELLO\r\n", "the request line is not 'METHOD /path HTTP/1.1'"),
            ("get / HTTP/1.1\r\n", "the request line is not 'METHOD /path HTTP/1.1'"),
            ("GET / SPDY/3\r\n", "the request line is not 'METHOD /path HTTP/1.1'"),
            ("GET  / HTTP/1.1\r\n", "the request line is not 'METHOD /path HTTP/1.1'"),
            ("GET http://x/ HTTP/1.1\r\n", "the request target is not a path"),
            ("GET / HTTP/1.1\r\nBroken header\r\n\r\n", "a header line has no colon"),
            ("\u{0}\u{1}binary", "the request line is not text"),
        ]
    )
    func invalid(text: String, reason: String) {
        #expect(Self.parse(text) == .invalid(reason))
    }
}
