import Foundation
public import POISockets
import Synchronization

/// A stand-in for gpsd on a loopback port, for integration tests of the gpsd client.
///
/// It listens on `127.0.0.1`, port 0 (the system picks a free one, `port` tells which), and serves each client
/// in turn: it sends the first line of its script (gpsd greets with VERSION), reads the client's command line,
/// sends the rest of the script and closes the connection. The commands it read are in `receivedCommands`.
/// Its thread keeps it alive while it listens: call `stop()`, in a `defer` right after creating it, so that a
/// test never leaves it running even when it fails.
public final class FakeGPSD: Sendable {
    /// The port it listens on.
    public var port: UInt16 { listener.port }

    private let listener: SocketListener
    private let commands = Mutex<[String]>([])

    /// Starts listening and serving `script`, one JSON report per element, to every client.
    public init(script: [String]) throws(SocketError) {
        listener = try SocketListener()
        let thread = Thread { [self] in serve(script) }
        thread.name = "FakeGPSD \(listener.port)"
        thread.start()
    }

    /// The command lines clients sent, in order.
    public var receivedCommands: [String] {
        commands.withLock { $0 }
    }

    /// Stops listening and ends any open connection.
    public func stop() {
        listener.stop()
    }

    private func serve(_ script: [String]) {
        while let client = listener.accept() {
            converse(with: client, script: script)
            client.close()
        }
    }

    private func converse(with client: SocketDescriptor, script: [String]) {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        do throws(SocketError) {
            if let greeting = script.first {
                try Socket.send(Array((greeting + "\n").utf8), to: client)
            }
            var received: [UInt8] = []
            while !received.contains(UInt8(ascii: "\n")) {
                received += try Socket.receive(from: client, deadline: deadline)
            }
            let command = received.prefix { $0 != UInt8(ascii: "\n") }
            commands.withLock { $0.append(String(decoding: command, as: UTF8.self)) }
            for line in script.dropFirst() {
                try Socket.send(Array((line + "\n").utf8), to: client)
            }
        } catch {
            return
        }
    }
}
