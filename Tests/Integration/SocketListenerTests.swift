import POISockets
import Testing

/// The owned socket and the listener every server stops with, over loopback.
@Suite("SocketListener and SocketDescriptor over loopback", .timeLimit(.minutes(1)))
struct SocketListenerTests {
    @Test("stop() wakes a thread blocked in accept, and the listener accepts nothing after")
    func stopWakesAccept() async throws {
        let listener = try SocketListener()
        async let accepted = BlockingCall.run { listener.accept() == nil }
        listener.stop()
        #expect(await accepted)
        #expect(listener.accept() == nil)
    }

    @Test("stop() ends the connections it accepted: a thread blocked reading one gets .closed")
    func stopEndsConnections() async throws {
        let listener = try SocketListener()
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        defer { client.close() }
        let server = try #require(listener.accept())
        async let read: SocketError? = BlockingCall.run {
            do throws(SocketError) {
                _ = try Socket.receive(from: server, deadline: .now.advanced(by: .seconds(10)))
                return nil
            } catch {
                return error
            }
        }
        listener.stop()
        #expect(await read == .closed)
        #expect(server.isClosed)
    }

    @Test("waitForConnection returns once a client is there, and throws .timedOut at its deadline while none is")
    func waitForConnection() throws {
        let listener = try SocketListener()
        defer { listener.stop() }
        #expect(throws: SocketError.timedOut) { try listener.waitForConnection(until: .now) }
        let client = try Socket.connect(
            host: "127.0.0.1", port: listener.port, deadline: .now.advanced(by: .seconds(10)))
        defer { client.close() }
        try listener.waitForConnection(until: .now.advanced(by: .seconds(10)))
        #expect(listener.accept() != nil)
    }

    @Test("A port another listener holds cannot be listened on, and the error says why in the system's words")
    func portInUse() throws {
        let holder = try SocketListener()
        defer { holder.stop() }
        #expect(throws: SocketError.io("cannot listen on 127.0.0.1:\(holder.port): address already in use")) {
            try SocketListener(port: holder.port)
        }
    }

    @Test("A closed descriptor is never used again, and closing twice is harmless")
    func closedOnce() throws {
        let (socket, _) = try Socket.bind(host: "127.0.0.1", port: 0)
        socket.close()
        socket.close()
        #expect(throws: SocketError.closed) { try Socket.send([1], to: socket) }
    }

    @Test("A port bound without listening refuses connections while the test holds it")
    func boundButNotListening() throws {
        let (held, port) = try Socket.bind(host: "127.0.0.1", port: 0, listening: false)
        defer { held.close() }
        #expect(throws: SocketError.self) {
            try Socket.connect(host: "127.0.0.1", port: port, deadline: .now.advanced(by: .seconds(10)))
        }
    }

    @Test(
        "A listener's queue holds backlog + 1 connections it has not accepted: its own backlog, else 128 (Linux)",
        .enabled(if: SocketTests.isLinux), arguments: [1, nil] as [Int32?])
    func backlog(backlog: Int32?) throws {
        let listener = try backlog.map { try SocketListener(backlog: $0) } ?? SocketListener()
        defer { listener.stop() }
        let queued = try SocketTests.fill(port: listener.port, count: Int(backlog ?? 128) + 1)
        defer { for socket in queued { socket.close() } }
        #expect(throws: SocketError.timedOut) { try SocketTests.connectBriefly(port: listener.port) }
    }
}
