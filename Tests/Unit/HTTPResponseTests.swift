import Foundation
import POIServer
import Testing

/// The stub server's answers as bytes: the JSON text and the head around it.
@Suite("HTTPResponse")
struct HTTPResponseTests {
    /// Declared out of alphabetical order, with a slash in a value.
    struct Unsorted: Encodable {
        var zeta = 1
        var alpha = "a/b"
    }

    @Test("JSON bodies have their keys sorted and a slash left as it is")
    func jsonText() {
        let response = HTTPResponse.json(Unsorted())
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"alpha":"a/b","zeta":1}"#)
        #expect(response.status == 200)
        #expect(response.headers.map(\.0) == ["Content-Type"])
        #expect(response.headers.map(\.1) == ["application/json"])
    }

    @Test("The head has the status line, the headers, the length and Connection: close; HEAD leaves the body out")
    func serialized() {
        let response = HTTPResponse.error(404, "no such path: /x")
        let body = #"{"error":"no such path: /x","status":404}"#
        let head =
            "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n"
        #expect(String(decoding: response.serialized(includingBody: true), as: UTF8.self) == head + body)
        #expect(String(decoding: response.serialized(includingBody: false), as: UTF8.self) == head)
    }
}
