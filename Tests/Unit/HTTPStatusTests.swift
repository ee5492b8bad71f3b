import POIHTTP
import Testing

/// The one table of reason phrases the client's errors and the stub server share.
@Suite("HTTPStatus reason phrases")
struct HTTPStatusTests {
    @Test(
        "Listed codes have RFC 9110's phrase; others the name of their class",
        arguments: [
            (200, "OK"), (204, "No Content"), (301, "Moved Permanently"), (304, "Not Modified"),
            (401, "Unauthorized"), (403, "Forbidden"), (404, "Not Found"), (429, "Too Many Requests"),
            (431, "Request Header Fields Too Large"), (502, "Bad Gateway"), (503, "Service Unavailable"),
            (504, "Gateway Timeout"), (199, "Informational"), (302, "Redirection"), (299, "Success"),
            (418, "Client Error"), (599, "Server Error"), (600, "Unknown Status"),
            (99, "Unknown Status"), (100, "Informational"), (300, "Redirection"), (399, "Redirection"),
        ]
    )
    func reasonPhrase(code: Int, phrase: String) {
        #expect(HTTPStatus.reasonPhrase(for: code) == phrase)
    }

    // Every status StubServer and its routes send: a status line that names the class instead of the phrase
    // ("408 Client Error") is one a client and its user cannot read.
    @Test(
        "Every status the stub server sends has its RFC 9110 reason phrase",
        arguments: [
            (200, "OK"), (400, "Bad Request"), (404, "Not Found"), (405, "Method Not Allowed"),
            (408, "Request Timeout"), (431, "Request Header Fields Too Large"), (500, "Internal Server Error"),
            (501, "Not Implemented"), (505, "HTTP Version Not Supported"),
        ]
    )
    func serverStatuses(code: Int, phrase: String) {
        #expect(HTTPStatus.reasonPhrase(for: code) == phrase)
    }
}
