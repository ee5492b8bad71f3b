import POIHTTP
import Testing

/// The one table of reason phrases the client's errors and the stub server share.
@Suite("HTTPStatus reason phrases")
struct HTTPStatusTests {
    @Test(
        "Listed codes have RFC 9110's phrase; others the name of their class",
        arguments: [
            (200, "OK"), (404, "Not Found"), (431, "Request Header Fields Too Large"), (503, "Service Unavailable"),
            (299, "Success"), (418, "Client Error"), (599, "Server Error"), (600, "Unknown Status"),
            (99, "Unknown Status"),
        ]
    )
    func reasonPhrase(code: Int, phrase: String) {
        #expect(HTTPStatus.reasonPhrase(for: code) == phrase)
    }
}
