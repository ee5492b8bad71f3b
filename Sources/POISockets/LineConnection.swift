/// A TCP client connection that reads newline-terminated lines, with a deadline on every wait: the gpsd client's,
/// and a test's watching gpsd.
public final class LineConnection {
    private let socket: SocketDescriptor
    private var buffer: [UInt8] = []
    /// How much of `buffer` is known to hold no newline, so that each byte is searched once.
    private var searched = 0
    /// How many bytes the search for line ends has looked at, over the connection's life.
    ///
    /// Each byte it received once, up to the last line end found: counted so that a test can hold the search to
    /// that, which no clock does.
    private(set) var bytesSearched = 0

    /// Connects to `host`:`port` (a name or a numeric address), giving up at `deadline`; the connection's system calls
    /// go through `faults` (a test's; `.none` otherwise).
    public init(
        host: String, port: UInt16, deadline: ContinuousClock.Instant, faults: SystemCallFaults = .none
    ) throws(SocketError) {
        socket = try Socket.connect(host: host, port: port, deadline: deadline, faults: faults)
    }

    /// Reads lines from `socket`, a connection made already, and closes it when it goes.
    ///
    /// Whoever else holds `socket` may close it from any thread, which ends a read waiting on it with `.closed`.
    public init(_ socket: SocketDescriptor) {
        self.socket = socket
    }

    deinit {
        socket.close()
    }

    /// Sends all of `text`.
    public func send(_ text: String) throws(SocketError) {
        try Socket.send(Array(text.utf8), to: socket)
    }

    /// The next line without its line ending; throws `.closed` at the end of the stream (`.reset` if the peer reset
    /// it), `.timedOut` at `deadline`.
    public func readLine(deadline: ContinuousClock.Instant) throws(SocketError) -> String {
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                bytesSearched += newline + 1 - searched
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                searched = 0
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            bytesSearched += buffer.count - searched
            searched = buffer.count
            buffer.append(contentsOf: try Socket.receive(from: socket, deadline: deadline))
            guard buffer.count <= 1 << 20 else { throw .io("a line longer than 1 MiB") }
        }
    }
}
