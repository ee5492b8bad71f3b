import Foundation
import POIDomain
import POIServer
import Testing

/// The query string read as a form, the WHATWG URL standard's way: a case per rule, and the whole path from a request
/// head to the routes' answer for the pieces the routes read.
@Suite("FormURLEncoded: the query as a form")
struct FormURLEncodedTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let rule: String
        let query: String
        let items: [String]  // "name=value", decoded

        var testDescription: String { rule }
    }

    static let cases: [Case] = [
        Case(rule: "pieces split on &", query: "lat=1&long=2", items: ["lat=1", "long=2"]),
        Case(rule: "a trailing & is an empty piece, skipped", query: "lat=1&", items: ["lat=1"]),
        Case(rule: "a doubled & is an empty piece, skipped", query: "lat=1&&long=2", items: ["lat=1", "long=2"]),
        Case(rule: "a leading & is an empty piece, skipped", query: "&lat=1", items: ["lat=1"]),
        Case(rule: "only &s: no piece", query: "&&&", items: []),
        Case(rule: "an empty query: no piece", query: "", items: []),
        Case(rule: "a piece without = is a name with an empty value", query: "flag", items: ["flag="]),
        Case(rule: "the name ends at the first =", query: "a==b", items: ["a==b"]),
        Case(rule: "an empty name is a name", query: "=5", items: ["=5"]),
        Case(rule: "+ is a space", query: "name=caf%C3%A9+bar", items: ["name=café bar"]),
        Case(rule: "%2B is a +", query: "lat=%2B1", items: ["lat=+1"]),
        Case(rule: "percent-decoding in names too", query: "l%61t=1", items: ["lat=1"]),
        Case(rule: "hex digits in either case", query: "a=%2f%2F", items: ["a=//"]),
        Case(rule: "a % not followed by two hex digits stays", query: "a=%zz%4", items: ["a=%zz%4"]),
        Case(rule: "an encoded & and = are data", query: "a=1%262%3D3", items: ["a=1&2=3"]),
        Case(rule: "bytes that are not UTF-8 are replaced", query: "a=%FF", items: ["a=\u{FFFD}"]),
    ]

    @Test("Each rule of the form's parsing", arguments: cases)
    func rule(_ form: Case) {
        let items = FormURLEncoded.items(Substring(form.query)).map { "\($0.name)=\($0.value ?? "")" }
        #expect(items == form.items)
    }

    @Test(
        "A query with a trailing, doubled or leading & is read by the routes as without it",
        arguments: ["lat=37.3293&long=-121.8893&", "lat=37.3293&&long=-121.8893", "&lat=37.3293&long=-121.8893"]
    )
    func emptyPiecesThroughTheRoutes(query: String) throws {
        let result = HTTPRequest.parse(Array("GET /locations?\(query) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        guard case .complete(let request) = result else {
            Issue.record("expected a complete request, got \(result)")
            return
        }
        guard case .respond(let response) = StubServerRoutes(places: PointOfInterest.sanJose).reply(to: request)
        else {
            Issue.record("expected an answer")
            return
        }
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
    }
}
