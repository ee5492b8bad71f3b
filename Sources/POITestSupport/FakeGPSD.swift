import Foundation
import POILock
public import POISockets

/// A stand-in for gpsd on a loopback port, for integration tests of the gpsd client.
///
/// It listens on `127.0.0.1`, port 0 (the system picks a free one, `port` tells which), and serves each client
/// in turn: it sends the first line of its script (gpsd greets with VERSION), reads the client's command line,
/// sends the rest of the script, then its repetition if it has one, and closes the connection. The commands it
/// read are in `receivedCommands`. Its thread keeps it alive while it listens: call `stop()`, in a `defer` right
/// after creating it, so that a test never leaves it running even when it fails.
public final class FakeGPSD: Sendable {
    /// A line sent again and again after the script, as gpsd goes on sending reports while it runs.
    public struct Repetition: Sendable {
        /// The line, one JSON report.
        public var line: String
        /// The wait before each line, on the client's connection: a client that hangs up ends the repetition at
        /// once instead of at its last line.
        public var interval: Duration
        /// How many times the line is sent before the connection closes.
        public var count: Int

        /// `line`, `count` times, one every `interval`.
        public init(line: String, every interval: Duration, times count: Int) {
            self.line = line
            self.interval = interval
            self.count = count
        }
    }

    /// The port it listens on.
    public var port: UInt16 { listener.port }

    private let listener: SocketListener
    private let commands = Lock<[String]>([])

    /// Starts listening and serving `script`, one JSON report per element, then `repetition`, to every client.
    public init(script: [String], thenRepeating repetition: Repetition? = nil) throws(SocketError) {
        listener = try SocketListener()
        let thread = Thread { [self] in serve(script, repetition) }
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

    private func serve(_ script: [String], _ repetition: Repetition?) {
        while let client = listener.accept() {
            converse(with: client, script: script, repetition: repetition)
            client.close()
        }
    }

    private func converse(with client: SocketDescriptor, script: [String], repetition: Repetition?) {
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
            guard let repetition else { return }
            for _ in 0..<repetition.count {
                do throws(SocketError) {
                    // The client sends nothing after its command: what ends this wait early is its hanging up.
                    try Socket.waitUntilReadable(client, until: .now.advanced(by: repetition.interval))
                    return
                } catch .timedOut {
                    try Socket.send(Array((repetition.line + "\n").utf8), to: client)
                }
            }
        } catch {
            return
        }
    }
}
