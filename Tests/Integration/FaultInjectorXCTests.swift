import POISockets
import POITestSupport
import PortableTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fault injector from XCTest: `withFaults` scopes an injector to one test method, as the `.injecting` trait
/// does for a Swift Testing test.
final class FaultInjectorXCTests: XCTestCase {
    func testShortAndInterruptedWritesStillDeliverEveryByte() async throws {
        try await withFaults(.fail(.send, with: EINTR, calls: 1...1), .shorten(.send, to: 7)) { injector in
            let listener = try SocketListener()
            defer { listener.stop() }
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            let client = try Socket.connect(
                host: "127.0.0.1", port: listener.port, deadline: deadline, faults: injector.faults)
            let server = try XCTUnwrap(listener.accept())
            defer { client.close() }  // wakes a send still blocked, if the bounded wait gave up on it
            let message = Array("the whole message, in pieces".utf8)
            try await boundedBlockingCall("the send of every byte of the message") {
                try Socket.send(message, to: client)
            }
            client.close()
            var received: [UInt8] = []
            while let piece = try? Socket.receive(from: server, deadline: deadline) {
                received += piece
            }
            XCTAssertEqual(received, message)
            XCTAssertEqual(injector.count(of: .send), 1 + (message.count + 6) / 7)  // the interrupted one, then 7s
        }
    }
}
