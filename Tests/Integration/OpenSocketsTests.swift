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

    @Test("Connections to a port count the client ends only: not the listener, not the ends it accepted")
    func countsClientEnds() throws {
        guard OpenSockets.count(port: 1) != nil else { return }  // Linux's /proc only
        let listener = try SocketListener()
        defer { listener.stop() }
        #expect(OpenSockets.count(connectedTo: listener.port) == 0)
        let clients = try (0..<2).map { _ in
            try Socket.connect(host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        }
        let accepted = try (0..<2).map { _ in try #require(listener.accept()) }
        #expect(OpenSockets.count(connectedTo: listener.port) == 2)
        clients[0].close()
        #expect(OpenSockets.count(connectedTo: listener.port) == 1)
        clients[1].close()
        #expect(OpenSockets.count(connectedTo: listener.port) == 0)
        #expect(OpenSockets.count(port: listener.port) == 3)  // the listener and the two ends it accepted
        for socket in accepted { socket.close() }
    }
}
