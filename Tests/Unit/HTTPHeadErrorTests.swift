import Foundation
import POIServer
import Testing

/// Each rule of RFC 9112 the server's request heads are read by, a case per class and boundary.
///
/// Each case is named after its rule: the head read (its path and framing), or refused (its status and reason).
/// `scripts/tool http-oracle` holds the same rules to h11, an outside parser; these say what the server answers.
@Suite("The request head's rules (RFC 9112)")
struct HTTPHeadErrorTests {
    /// What a head must come to.
    enum Outcome: Equatable, Sendable, CustomStringConvertible {
        case read(path: String, framing: HTTPMessageFraming)
        case refused(status: Int, saying: String)

        var description: String {
            switch self {
            case .read(let path, let framing): "read \(path), \(framing)"
            case .refused(let status, let saying): "\(status) '\(saying)'"
            }
        }
    }

    struct Rule: Sendable, CustomTestStringConvertible {
        let rule: String
        let head: String
        let outcome: Outcome

        var testDescription: String { rule }
    }

    static func rule(_ rule: String, _ fields: [String], line: String = "GET /health HTTP/1.1", _ outcome: Outcome)
        -> Rule
    {
        Rule(rule: rule, head: ([line] + fields).joined(separator: "\r\n") + "\r\n\r\n", outcome: outcome)
    }

    static let health = Outcome.read(path: "/health", framing: .none)
    static func refused(_ saying: String, status: Int = 400) -> Outcome { .refused(status: status, saying: saying) }

    static let rules: [Rule] = [
        // §3 the request line
        rule("§3 a method is a token, in any case", ["Host: x"], line: "get /health HTTP/1.1", health),
        rule("§3 a method that is not a token", ["Host: x"], line: "GE(T /health HTTP/1.1", refused("request line")),
        rule(
            "§3 one space between the parts, not two", ["Host: x"], line: "GET  /health HTTP/1.1", refused("one space")),
        rule("§3 no space after the version", ["Host: x"], line: "GET /health HTTP/1.1 ", refused("request line")),
        rule("§2.3 the version is HTTP/d.d", ["Host: x"], line: "GET /health HTTP/1.10", refused("request line")),
        rule("§2.3 HTTP/1.0 needs no Host", [], line: "GET /health HTTP/1.0", health),
        rule(
            "§2.3 a version the server does not speak", ["Host: x"], line: "GET /health HTTP/2.0",
            refused("HTTP/2.0", status: 505)),
        // §3.2 the target and Host
        rule(
            "§3.2.2 the absolute form is accepted", ["Host: h"], line: "GET http://h/health?x=1 HTTP/1.1", health),
        rule(
            "§3.2.2 an absolute URL without a path is the root", ["Host: h"], line: "GET https://h HTTP/1.1",
            .read(path: "/", framing: .none)),
        rule("§3.2.4 the asterisk form is not for GET", ["Host: x"], line: "GET * HTTP/1.1", refused("'*' is neither")),
        rule("§3.2.3 the authority form is not for GET", ["Host: x"], line: "GET h:80 HTTP/1.1", refused("neither")),
        rule(
            "§3.2 a path that starts with // stays a path", ["Host: x"], line: "GET //health HTTP/1.1",
            .read(path: "//health", framing: .none)),
        rule("§3.2 HTTP/1.1 needs a Host", [], refused("needs a Host")),
        rule("§3.2 one Host, not two", ["Host: x", "Host: x"], refused("more than one Host")),
        rule("§3.2 an empty Host is a Host", ["Host:"], health),
        // §5 field lines
        rule("§5 a field line needs a colon", ["Host: x", "Broken"], refused("no colon: 'Broken'")),
        rule("§5.1 no white space before the colon", ["Host : x"], refused("white space before the colon")),
        rule("§5.1 a field name is a token", ["Host: x", "X(y: z"], refused("'X(y' is not a token")),
        rule("§5.1 a field name is not empty", ["Host: x", ": z"], refused("is not a token")),
        rule("§5.1 white space around a value is not the value's", ["Host: \t x \t"], health),
        rule("RFC 9110 §5.5 no NUL in a value", ["Host: x", "X-A: b\u{0}c"], refused("control character or NUL")),
        rule("RFC 9110 §5.5 no CR in a value", ["Host: x", "X-A: b\rc"], refused("control character or NUL")),
        rule("RFC 9110 §5.5 no form feed in a value", ["Host: x", "X-A: b\u{0C}c"], refused("control character")),
        rule("RFC 9110 §5.5 obs-text in a value", ["Host: x", "X-A: café"], health),
        rule("§5.2 an obsolete fold joins its line", ["Host: x", "X-A: b", " c"], health),
        rule("§5.2 no fold before the first field", [" X-A: b", "Host: x"], refused("begins with white space")),
        // §6.3 framing
        rule(
            "§6.3 Content-Length 0: no body", ["Host: x", "Content-Length: 0"],
            .read(path: "/health", framing: .length(0))),
        rule(
            "§6.3 a length announces a body", ["Host: x", "Content-Length: 5"],
            .read(path: "/health", framing: .length(5))),
        rule("§6.3 a length is digits", ["Host: x", "Content-Length: abc"], refused("is not a number of bytes")),
        rule("§6.3 a length is not empty", ["Host: x", "Content-Length:"], refused("is not a number of bytes")),
        rule("§6.3 a length has no sign", ["Host: x", "Content-Length: +0"], refused("is not a number of bytes")),
        rule("§6.3 a length has no space inside", ["Host: x", "Content-Length: 0 0"], refused("not a number")),
        rule("§6.3 a length is decimal", ["Host: x", "Content-Length: 0x0"], refused("is not a number of bytes")),
        rule(
            "§6.3 a list of equal lengths is one", ["Host: x", "Content-Length: 7, 7"],
            .read(path: "/health", framing: .length(7))),
        rule("§6.3 a list of two lengths conflicts", ["Host: x", "Content-Length: 0, 1"], refused("conflicting")),
        rule(
            "§6.3 two equal fields are one", ["Host: x", "Content-Length: 3", "Content-Length: 3"],
            .read(path: "/health", framing: .length(3))),
        rule(
            "§6.3 two different fields conflict", ["Host: x", "Content-Length: 0", "Content-Length: 5"],
            refused("conflicting Content-Length values: 0 and 5")),
        rule(
            "§6.3 the same number in other digits conflicts", ["Host: x", "Content-Length: 0", "Content-Length: 00"],
            refused("conflicting")),
        rule(
            "§6.3 20 digits at most", ["Host: x", "Content-Length: 99999999999999999999"],
            .read(path: "/health", framing: .length(.max))),
        rule(
            "§6.3 21 digits are too many", ["Host: x", "Content-Length: 999999999999999999999"],
            refused("more than 20 digits")),
        rule(
            "§6.1 chunked, in any case", ["Host: x", "Transfer-Encoding: Chunked"],
            .read(path: "/health", framing: .chunked)),
        rule(
            "§6.1 a coding other than chunked is not implemented", ["Host: x", "Transfer-Encoding: gzip"],
            refused("'gzip' is not implemented", status: 501)),
        rule(
            "§6.1 a list of codings is not implemented", ["Host: x", "Transfer-Encoding: gzip, chunked"],
            refused("is not implemented", status: 501)),
        rule(
            "§6.1 a second Transfer-Encoding is not implemented",
            ["Host: x", "Transfer-Encoding: chunked", "Transfer-Encoding: chunked"],
            refused("more than one", status: 501)),
        rule(
            "§6.3 a Transfer-Encoding overrides a Content-Length",
            ["Host: x", "Transfer-Encoding: chunked", "Content-Length: 3"], .read(path: "/health", framing: .chunked)),
        // §2.2 line ends
        Rule(rule: "§2.2 a bare LF ends a line", head: "GET /health HTTP/1.1\nHost: x\n\n", outcome: health),
        Rule(
            rule: "§2.2 a bare LF, then an empty line ended by CRLF", head: "GET /health HTTP/1.1\nHost: x\n\r\n",
            outcome: health),
        Rule(
            rule: "§2.2 a bare CR does not", head: "GET /health HTTP/1.1\rHost: x\r\n\r\n",
            outcome: refused("request line")),
        Rule(
            rule: "§2.2 an empty line before the request line", head: "\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n",
            outcome: refused("begins with an empty line")),
    ]

    /// A head's fields and the headers the server keeps of them.
    struct Kept: Sendable, CustomTestStringConvertible {
        let rule: String
        let fields: [String]
        let headers: [String: String]

        var testDescription: String { rule }
    }

    static let keptFields: [Kept] = [
        Kept(
            rule: "§5.2 a fold is one space, the white space that begins the line dropped",
            fields: ["Host: x", "X-A: b", " \t c"], headers: ["host": "x", "x-a": "b c"]),
        Kept(
            rule: "§5.1 white space around a value is not the value's", fields: ["Host: x", "X-B: \t d \t "],
            headers: ["host": "x", "x-b": "d"]),
        Kept(
            rule: "§6.3 a length is kept as its digits", fields: ["Host: x", "Content-Length: 5"],
            headers: ["host": "x", "content-length": "5"]),
        Kept(
            rule: "§6.3 a list of equal lengths is kept as one", fields: ["Host: x", "Content-Length: 7, 7"],
            headers: ["host": "x", "content-length": "7"]),
        Kept(
            rule: "§6.3 two equal length fields are kept as one",
            fields: ["Host: x", "Content-Length: 3", "Content-Length: 3"],
            headers: ["host": "x", "content-length": "3"]),
        Kept(
            rule: "§6.1 chunked is kept in lower case", fields: ["Host: x", "Transfer-Encoding: Chunked"],
            headers: ["host": "x", "transfer-encoding": "chunked"]),
    ]

    @Test("The headers a read head keeps: unfolded, trimmed, its framing's fields as decided", arguments: keptFields)
    func kept(_ example: Kept) throws {
        let head = (["GET /health HTTP/1.1"] + example.fields).joined(separator: "\r\n") + "\r\n\r\n"
        guard case .complete(let request) = HTTPRequest.parse(Array(head.utf8)) else {
            Issue.record("not read: \(HTTPRequest.parse(Array(head.utf8)))")
            return
        }
        #expect(request.headers == example.headers)
    }

    /// A refusal quotes the line at fault: visible ASCII as it is, any other byte and `\` as `\xHH` (two upper-case
    /// digits), the first 80 bytes, `…` when there were more.
    @Test(
        "A refusal quotes at most 80 bytes of the line, each byte that is not visible as \\xHH",
        arguments: [
            (76, #"\x01\x1B\x7F\x5C"# + String(repeating: "a", count: 76)),
            (77, #"\x01\x1B\x7F\x5C"# + String(repeating: "a", count: 76) + "…"),
        ])
    func quoted(letters: Int, quoted: String) {
        let line = "\u{01}\u{1B}\u{7F}\\" + String(repeating: "a", count: letters)
        let head = "GET /health HTTP/1.1\r\nHost: x\r\n" + line + "\r\n\r\n"
        guard case .invalid(let reason, let status) = HTTPRequest.parse(Array(head.utf8)) else {
            Issue.record("not refused: \(HTTPRequest.parse(Array(head.utf8)))")
            return
        }
        #expect(status == 400)
        #expect(reason == "a header line has no colon: '\(quoted)'")
    }

    @Test("Each rule: the head read, or refused with its status and why", arguments: rules)
    func rule(_ rule: Rule) {
        let outcome: Outcome? =
            switch HTTPRequest.parse(Array(rule.head.utf8)) {
            case .complete(let request): .read(path: request.path, framing: request.framing)
            case .invalid(let reason, let status): .refused(status: status, saying: reason)
            case .incomplete, .tooLarge: nil
            }
        switch (outcome, rule.outcome) {
        case (.refused(let status, let reason)?, .refused(let expected, let saying)):
            #expect(status == expected, "\(reason)")
            #expect(reason.contains(saying), "\(reason)")
        default:
            #expect(outcome == rule.outcome)
        }
    }
}
