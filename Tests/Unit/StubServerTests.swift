import POIServer
import Testing

/// What the stub server's configuration says without a socket: the URL clients are given.
@Suite("StubServer, without sockets")
struct StubServerTests {
    @Test(
        "The URL names the host the server binds, an IPv6 address in brackets",
        arguments: [
            ("127.0.0.1", "http://127.0.0.1:8080"), ("localhost", "http://localhost:8080"),
            ("::1", "http://[::1]:8080"), ("fe80::1", "http://[fe80::1]:8080"),
        ]
    )
    func url(host: String, url: String) throws {
        var configuration = StubServer.Configuration()
        configuration.host = host
        #expect(configuration.url(port: 8080).absoluteString == url)
    }
}
