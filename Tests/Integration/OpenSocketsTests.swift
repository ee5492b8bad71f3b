import POITestSupport
import Testing

@testable import POISockets

/// The descriptor count tests use to find a leak: one port's sockets, whatever the other tests open meanwhile.
@Suite("OpenSockets counts one port's sockets")
struct OpenSocketsTests {
    @Test("A listener, a connection's two ends, and nothing once they are closed")
    func countsOnePort() throws {
        guard OpenSockets.count(port: 1) != nil else { return }  // where the system lists descriptors (/dev/fd)
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

    @Test("A socket is still open by its identity: one closed is not, and a new one on the same port is not it")
    func stillOpenByIdentity() throws {
        guard OpenSockets.count(port: 1) != nil else { return }  // where the system lists descriptors (/dev/fd)
        let listener = try SocketListener()
        defer { listener.stop() }
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        defer { client.close() }
        let server = try #require(listener.accept())
        let before = try #require(OpenSockets.sockets(port: listener.port))
        #expect(before.count == 3)
        let clientEnd = before.first { $0.peer == listener.port }?.local ?? 0
        #expect(Set(before.map(\.local)) == Set([listener.port, clientEnd]))
        #expect(OpenSockets.stillOpen(before) == before)
        server.close()
        let open = try #require(OpenSockets.stillOpen(before))
        #expect(open.count == 2)
        #expect(!open.contains { $0.local == listener.port && $0.peer != nil }, "the closed end is not open")
        // A new connection's end on the same port, accepted after the snapshot, is another socket.
        let second = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        defer { second.close() }
        let accepted = try #require(listener.accept())
        defer { accepted.close() }
        #expect(OpenSockets.count(port: listener.port) == 4)
        #expect(OpenSockets.stillOpen(before)?.count == 2)
    }

    @Test("Each entry is a socket's descriptor, its own address and its peer's (none for a listener), host and port")
    func entryAddresses() throws {
        guard OpenSockets.count(port: 1) != nil else { return }  // where the system lists descriptors (/dev/fd)
        let injector = FaultInjector()
        let listener = try SocketListener(faults: injector.faults)
        defer { listener.stop() }
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        defer { client.close() }
        let server = try #require(listener.accept())
        defer { server.close() }
        let entries = try #require(OpenSockets.sockets(port: listener.port))
        #expect(entries.count == 3)
        let listening = try #require(entries.first { $0.peer == nil })
        let accepted = try #require(entries.first { $0.local == listener.port && $0.peer != nil })
        let connecting = try #require(entries.first { $0.peer == listener.port })
        #expect(listening.localAddress == "127.0.0.1:\(listener.port)")
        #expect(listening.peerAddress == nil)
        #expect(accepted.localAddress == "127.0.0.1:\(listener.port)")
        #expect(connecting.peerAddress == "127.0.0.1:\(listener.port)")
        #expect(connecting.localAddress == "127.0.0.1:\(connecting.local)")
        #expect(accepted.peerAddress == connecting.localAddress)
        #expect(connecting.descriptor == (try client.use { $0 }))
        #expect(accepted.descriptor == (try server.use { $0 }))
        // The listening socket is the one its listener made: the seam saw it open (beside its wake pipe's two ends).
        #expect(injector.openDescriptors.contains(listening.descriptor))
        #expect(Set([listening.descriptor, accepted.descriptor, connecting.descriptor]).count == 3)
    }

    @Test("An IPv6 socket's addresses bracket the host: [::1]:port")
    func entryAddressesIPv6() throws {
        guard OpenSockets.count(port: 1) != nil else { return }  // where the system lists descriptors (/dev/fd)
        // Where loopback has no IPv6 address, there is no such socket to ask.
        let injector = FaultInjector()
        guard let listener = try? SocketListener(host: "::1", faults: injector.faults) else { return }
        defer { listener.stop() }
        let entries = try #require(OpenSockets.sockets(port: listener.port)).filter {
            injector.openDescriptors.contains($0.descriptor)
        }
        #expect(entries.map(\.localAddress) == ["[::1]:\(listener.port)"])
        #expect(entries.map(\.peerAddress) == [nil])
    }

    @Test("Connections to a port count the client ends only: not the listener, not the ends it accepted")
    func countsClientEnds() throws {
        guard OpenSockets.count(port: 1) != nil else { return }  // where the system lists descriptors (/dev/fd)
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
