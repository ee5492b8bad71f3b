import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stand-in for gpsd on a loopback port, for integration tests of the gpsd client.
///
/// It listens on `127.0.0.1`, port 0 (the system picks a free one, `port` tells which), and serves each client
/// in turn: it sends the first line of its script (gpsd greets with VERSION), reads the client's command line,
/// sends the rest of the script and closes the connection. The commands it read are in `receivedCommands`.
/// Its thread keeps it alive while it listens: call `stop()`, in a `defer` right after creating it, so that a
/// test never leaves it running even when it fails.
public final class FakeGPSD: Sendable {
    /// Why the fake could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What the system said.
        public let description: String
    }

    /// The port it listens on.
    public let port: UInt16

    private let listener: Int32
    private let state = Mutex((commands: [String](), client: Int32(-1), stopped: false))

    /// Starts listening and serving `script`, one JSON report per element, to every client.
    public init(script: [String]) throws(StartError) {
        let descriptor = socket(AF_INET, Self.streamSocketType, 0)
        guard descriptor >= 0 else { throw StartError(description: "socket: \(Self.systemError())") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            let reason = Self.systemError()
            close(descriptor)
            throw StartError(description: "bind 127.0.0.1:0: \(reason)")
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve(script) }
        thread.name = "FakeGPSD \(port)"
        thread.start()
    }

    deinit {
        stop()
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
            if state.client >= 0 { shutdown(state.client, Int32(SHUT_RDWR)) }
            shutdown(listener, Int32(SHUT_RDWR))
        }
    }

    private func serve(_ script: [String]) {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let stopped = state.withLock { state -> Bool in
                if state.stopped {
                    close(client)
                } else {
                    state.client = client
                }
                return state.stopped
            }
            if stopped { return }
            if let greeting = script.first {
                send(greeting, to: client)
            }
            if let command = readLine(from: client) {
                state.withLock { $0.commands.append(command) }
                for line in script.dropFirst() {
                    send(line, to: client)
                }
            }
            state.withLock { state in
                state.client = -1
                close(client)
            }
        }
    }

    private func send(_ line: String, to client: Int32) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(client, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else { return }
            offset += written
        }
    }

    private func readLine(from client: Int32) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(client, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }

    #if canImport(Glibc)
        private static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    #else
        private static let streamSocketType = SOCK_STREAM
    #endif
}
