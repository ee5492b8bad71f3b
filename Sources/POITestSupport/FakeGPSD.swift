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
    public let port: UInt16

    private let listener: Int32
    private let state = Mutex((commands: [String](), client: Int32(-1), stopped: false))

    /// Starts listening and serving `script`, one JSON report per element, to every client.
    public init(script: [String]) throws(SocketError) {
        (listener, port) = try Socket.listen(host: "127.0.0.1", port: 0)
        let thread = Thread { [self] in serve(script) }
        thread.name = "FakeGPSD \(port)"
        thread.start()
    }

    /// The command lines clients sent, in order.
    public var receivedCommands: [String] {
        state.withLock { $0.commands }
    }

    /// Stops listening and ends any open connection; the serving thread closes the descriptors as it exits.
    ///
    /// Only the serving thread closes descriptors, and `stop()` shuts them down under the same lock, so a descriptor
    /// number that another test has been given since can never be shut down or accepted on by mistake.
    public func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            if state.client >= 0 { Socket.shutdown(state.client) }
            Socket.shutdown(listener)
        }
    }

    private func serve(_ script: [String]) {
        defer { Socket.close(listener) }
        while let client = Socket.accept(listener) {
            let stopped = state.withLock { state -> Bool in
                if state.stopped {
                    Socket.close(client)
                } else {
                    state.client = client
                }
                return state.stopped
            }
            if stopped { return }
            converse(with: client, script: script)
            state.withLock { state in
                state.client = -1
                Socket.close(client)
            }
        }
    }

    private func converse(with client: Int32, script: [String]) {
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
            state.withLock { $0.commands.append(String(decoding: command, as: UTF8.self)) }
            for line in script.dropFirst() {
                try Socket.send(Array((line + "\n").utf8), to: client)
            }
        } catch {
            return
        }
    }
}
