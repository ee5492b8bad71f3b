import Foundation
import POIServer
import Testing

/// The refusal of a request line that is not one.
private let notARequestLine = "the request line is not 'METHOD TARGET HTTP/1.1' (one space between each)"

/// Reading request heads, as the stub server does before it routes them.
@Suite("HTTPRequest.parse")
struct HTTPRequestTests {
    static func parse(_ text: String) -> HTTPRequest.ParseResult {
        HTTPRequest.parse(Array(text.utf8))
    }

    @Test("A head made in code keeps the version it is given, and says 1.1 when given none")
    func madeInCode() {
        #expect(HTTPRequest(method: "GET", path: "/", version: "1.0").version == "1.0")
        #expect(HTTPRequest(method: "GET", path: "/").version == "1.1")
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
            "", "GET /hea", "GET /hea\r", "GET /health HTTP/1.1\r\n", "GET /health HTTP/1.1\r\nHost: x\r\n",
            // A read that ends between the blank line's CR and LF, and a CR followed by something else.
            "GET /health HTTP/1.1\r\nHost: x\r\n\r", "GET /health HTTP/1.1\r\nHost: x\r\n\rX",
        ])
    func incomplete(text: String) {
        #expect(Self.parse(text) == .incomplete)
    }

    @Test(
        "What is not an HTTP request is rejected as soon as the first line shows it",
        arguments: [
            ("HELLO\r\n", notARequestLine),
            ("GE(T / HTTP/1.1\r\n", notARequestLine),
            ("GET / SPDY/3\r\n", notARequestLine),
            ("GET  / HTTP/1.1\r\n", notARequestLine),
            ("GET * HTTP/1.1\r\nHost: x\r\n\r\n", "the request target '*' is neither a path nor an absolute URL"),
            ("GET / HTTP/1.1\r\nBroken header\r\n\r\n", "a header line has no colon: 'Broken header'"),
            ("\u{0}\u{1}binary", "the request line is not text"),
            // Before its line has ended: a NUL as the last byte so far, or a CR with a byte after it, is enough.
            ("GET /\u{0}", "the request line is not text"),
            ("GET /\rX", "the request line is not text"),
            ("\r\nGET / HTTP/1.1\r\n", "the head begins with an empty line, not a request line"),
        ]
    )
    func invalid(text: String, reason: String) {
        #expect(Self.parse(text) == .invalid(reason))
    }

    /// A whole `GET /health` head of exactly `size` bytes, blank line included, its lines ending with `newline`.
    static func head(ofSize size: Int, newline: String = "\r\n") -> [UInt8] {
        let start = "GET /health HTTP/1.1\(newline)Host: x\(newline)X-Padding: "
        let padding = String(repeating: "a", count: size - start.utf8.count - 2 * newline.utf8.count)
        return Array((start + padding + newline + newline).utf8)
    }

    @Test(
        "A head longer than the limit is too large, whether it ended or not",
        arguments: [
            head(ofSize: 101), head(ofSize: 101, newline: "\n"),
            // Whole, with a body behind it: the head alone is over the limit.
            head(ofSize: 101) + Array("body".utf8),
            // No end yet, and more bytes than the limit: in the request line, in the headers, in the blank line.
            Array(("GET /" + String(repeating: "a", count: 96)).utf8), Array(head(ofSize: 200).prefix(101)),
            Array(head(ofSize: 102).dropLast(1)),
        ] as [[UInt8]]
    )
    func tooLarge(bytes: [UInt8]) {
        #expect(HTTPRequest.parse(bytes, maximumSize: 100) == .tooLarge)
    }

    @Test(
        "A head of exactly the limit is read, with or without a body or the next request behind it",
        arguments: [
            head(ofSize: 100), head(ofSize: 100, newline: "\n"), head(ofSize: 100) + Array("body".utf8),
            head(ofSize: 100) + head(ofSize: 100),
        ]
    )
    func atLimit(bytes: [UInt8]) {
        guard case .complete(let request) = HTTPRequest.parse(bytes, maximumSize: 100) else {
            Issue.record("expected a complete request")
            return
        }
        #expect(request.path == "/health")
    }

    @Test("A head of the limit's length that has not ended yet asks for more bytes; one more byte is too many")
    func atLimitIncomplete() {
        // The limit's worth, ending between the blank line's CR and LF: the LF makes the head one byte too long.
        let bytes = Array(Self.head(ofSize: 101).dropLast(1))
        #expect(HTTPRequest.parse(bytes, maximumSize: 100) == .incomplete)
        #expect(HTTPRequest.parse(bytes + [UInt8(ascii: "\n")], maximumSize: 100) == .tooLarge)
    }

    @Test("A request line of the limit's length, not ended yet, asks for more bytes; one byte more is too many")
    func requestLineAtLimit() {
        let line = Array("GET /\(String(repeating: "a", count: 95))".utf8)  // 100 bytes, no newline yet
        #expect(line.count == 100)
        #expect(HTTPRequest.parse(line, maximumSize: 100) == .incomplete)
        #expect(HTTPRequest.parse(line + [UInt8(ascii: "a")], maximumSize: 100) == .tooLarge)
    }

    @Test("A query parameter given twice reads as its first value")
    func firstValueOfARepeatedParameter() {
        let request = HTTPRequest(
            method: "GET", path: "/locations",
            query: [URLQueryItem(name: "lat", value: "1"), URLQueryItem(name: "lat", value: "2")])
        #expect(request.queryValue("lat") == "1")
        #expect(request.queryValue("long") == nil)
    }

    @Test(
        "A head announces a body with a chunked Transfer-Encoding or a Content-Length other than 0",
        arguments: [
            ("", false), ("Content-Length: 0\r\n", false), ("Content-Length: 000\r\n", false),
            ("Content-Length: 12\r\n", true), ("Transfer-Encoding: chunked\r\n", true),
            ("Transfer-Encoding: chunked\r\nContent-Length: 0\r\n", true),
        ]
    )
    func announcesBody(fields: String, expected: Bool) throws {
        let result = Self.parse("POST /locations HTTP/1.1\r\nHost: x\r\n\(fields)\r\n")
        guard case .complete(let request) = result else {
            Issue.record("expected a complete request, got \(result)")
            return
        }
        #expect(request.announcesBody == expected)
    }
}
