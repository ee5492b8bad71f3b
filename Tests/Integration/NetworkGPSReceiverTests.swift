import POISockets
import PortableTestSupport
import Testing

@testable import POITestSupport

/// The receiver gpsd reads, with the test standing for gpsd: its port, its failures, and its waits cancelled.
@Suite("NetworkGPSReceiver without gpsd", .timeLimit(.minutes(1)))
struct NetworkGPSReceiverTests {
    static func deadline() -> ContinuousClock.Instant { .now.advanced(by: .seconds(10)) }

    /// How `socket`'s next read ends: `nil` with data, else the error (`.closed` at the end of the stream).
    static func nextRead(_ socket: SocketDescriptor) -> SocketError? {
        do throws(SocketError) {
            _ = try Socket.receive(from: socket, deadline: deadline())
            return nil
        } catch {
            return error
        }
    }

    /// The test's connection to `receiver` as gpsd's, once the receiver has taken it.
    static func connectAsGPSD(to receiver: NetworkGPSReceiver) async throws -> SocketDescriptor {
        let device = try Socket.connect(host: "127.0.0.1", port: receiver.port, deadline: deadline())
        try await withBoundedWait(.seconds(10), what: "the receiver's wait for gpsd") {
            try await receiver.waitForGPSD(timeout: .seconds(10))
        }
        return device
    }

    @Test("It listens on its port, which its source names: a client there is the gpsd it waits for, and holds")
    func port() async throws {
        let receiver = try NetworkGPSReceiver()
        defer { receiver.stop() }
        #expect(receiver.port != 0)
        #expect(receiver.source == "tcp://127.0.0.1:\(receiver.port)")
        let device = try await Self.connectAsGPSD(to: receiver)
        defer { device.close() }
        receiver.stop()
        let end = try await boundedBlockingCall("the end of gpsd's connection, the receiver stopped") {
            Self.nextRead(device)
        }
        #expect(end == .closed)
    }

    @Test("Its failures say what went wrong: a replay before gpsd connected, a wait that gpsd's connection outlived")
    func failures() async throws {
        let receiver = try NetworkGPSReceiver()
        defer { receiver.stop() }
        let early = await #expect(throws: NetworkGPSReceiver.Failure.self) {
            try await withBoundedWait(.seconds(10), what: "a replay before gpsd connected") {
                try await receiver.replay("", throughGPSDOnPort: receiver.port)
            }
        }
        #expect(early?.description == "gpsd has not connected; call waitForGPSD() first")
        let late = await #expect(throws: NetworkGPSReceiver.Failure.self) {
            try await withBoundedWait(.seconds(10), what: "a wait for gpsd that ends at once") {
                try await receiver.waitForGPSD(timeout: .zero)
            }
        }
        #expect(
            late?.description
                == "gpsd did not connect to tcp://127.0.0.1:\(receiver.port) within 0.0 seconds (timed out); did it start?"
        )
    }

    @Test("waitForGPSD cancelled while it waits: CancellationError at once, the receiver stopped, nothing left open")
    func waitCancelled() async throws {
        let injector = FaultInjector()
        let receiver = try NetworkGPSReceiver(faults: injector.faults)
        defer { receiver.stop() }
        let wait = Task { try await receiver.waitForGPSD(timeout: .seconds(60)) }
        // In the listener's poll, or on its way in: the cancellation ends the wait either way.
        try await boundedUntil("the wait's poll of the listener") { injector.count(of: .pollListener) > 0 }
        wait.cancel()
        await #expect(throws: CancellationError.self) { try await wait.boundedValue("the cancelled wait for gpsd") }
        #expect(injector.gaveEverythingBack, "the listener and its wake pipe closed: \(injector.leftovers)")
        await #expect(throws: NetworkGPSReceiver.Failure.self, "a later wait ends at once: the receiver is stopped") {
            try await withBoundedWait(.seconds(10), what: "a wait on the stopped receiver") {
                try await receiver.waitForGPSD(timeout: .seconds(60))
            }
        }
        receiver.stop()
        #expect(injector.count(of: .close) == 3, "the listener and its wake pipe, each closed once")
    }

    @Test(
        "replay cancelled while gpsd does not answer: CancellationError at once, its watch closed, gpsd's connection kept"
    )
    func replayCancelled() async throws {
        let receiver = try NetworkGPSReceiver()
        defer { receiver.stop() }
        // The test stands for gpsd: its connection to the receiver, and a port for its clients that never answers.
        let device = try await Self.connectAsGPSD(to: receiver)
        defer { device.close() }
        let clients = try SocketListener()
        defer { clients.stop() }
        let replay = Task {
            try await receiver.replay(
                RecordedTrack.conventionCenterWalk, throughGPSDOnPort: clients.port, timeout: .seconds(60))
        }
        let watch = try #require(
            try await boundedBlockingCall("the replay's connection to gpsd's clients' port") { clients.accept() })
        defer { watch.close() }
        let command = try await boundedBlockingCall("the replay's WATCH") { () throws -> String in
            var received: [UInt8] = []
            while !received.contains(UInt8(ascii: "\n")) {
                received += try Socket.receive(from: watch, deadline: Self.deadline())
            }
            return String(decoding: received, as: UTF8.self)
        }
        #expect(command == #"?WATCH={"enable":true,"json":true};"# + "\n")
        // It has sent its WATCH: it waits for gpsd to acknowledge it, which this gpsd never does.
        replay.cancel()
        await #expect(throws: CancellationError.self) { try await replay.boundedValue("the cancelled replay") }
        let watchEnd = try await boundedBlockingCall("the end of the replay's connection") { Self.nextRead(watch) }
        #expect(watchEnd == .closed, "the replay closed its connection to gpsd")
        #expect(throws: SocketError.timedOut, "gpsd's connection to the receiver is kept, nothing sent on it") {
            try Socket.waitUntilReadable(device, until: .now)
        }
        receiver.stop()
        let deviceEnd = try await boundedBlockingCall("the end of gpsd's connection, the receiver stopped") {
            Self.nextRead(device)
        }
        #expect(deviceEnd == .closed)
    }
}
