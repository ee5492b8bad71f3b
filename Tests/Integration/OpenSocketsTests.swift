import POISockets
import POITestSupport
import Testing

/// The descriptor count tests use to find a leak: one port's sockets, whatever the other tests open meanwhile.
@Suite("OpenSockets counts one port's sockets")
struct OpenSocketsTests {
    @Test("A listener, a connection's two ends, and nothing once they are closed")
    func countsOnePort() throws {
        guard OpenSockets.count(port: 1) != nil else { return }  // Linux's /proc only
        let listener = try SocketListener()
        defer { listener.stop() }
        #expect(OpenSockets.count(port: listener.port) == 1)
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        let server = try #require(listener.accept())
        #expect(OpenSockets.count(port: listener.port) == 3)
        client.close()
        server.close()
        #expect(OpenSockets.count(port: listener.port) == 1)
    }
}
