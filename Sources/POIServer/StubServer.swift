import Dispatch
public import Foundation
import POIDomain
import POILock
public import POISockets

/// The package's HTTP server for places: the talk's local mock server, whose data tests control.
///
/// It serves `GET /locations?lat=…&long=…` (optional `radius` in metres and `limit`) and `GET /health` over plain
/// POSIX sockets, one request per connection. It binds `127.0.0.1` and a port the system chooses unless told
/// otherwise, and it is built to survive what a network sends: a request head over the size limit gets 431, text
/// that is not HTTP gets 400, a client that sends nothing is dropped after the idle timeout, and at most
/// `maximumConnections` are served at once (more wait in the listen backlog). The 400, the 431 and any answer to a
/// request with a body (which it never reads) come before the request was read whole, so the server then closes
/// gracefully, for a bounded time and size, and a client still sending reads the answer instead of a reset.
public final class StubServer: Sendable {
    /// How the server runs.
    public struct Configuration: Sendable {
        /// The address to bind; `127.0.0.1` keeps the server off the network.
        public var host = "127.0.0.1"
        /// The port; 0 lets the system choose a free one.
        public var port: UInt16 = 0
        /// What the server lists and how it misbehaves.
        public var routes = StubServerRoutes(places: PointOfInterest.sanJose)
        /// How long a client may take to send its request head.
        public var idleTimeout: Duration = .seconds(5)
        /// The largest request head accepted, in bytes, up to and including the blank line that ends it; a longer
        /// one is answered 431 however the network split it into reads (`HTTPRequest.parse(_:maximumSize:)`).
        public var maximumRequestSize = 16 * 1024
        /// After an answer sent before the request was read whole (a 400, a 431, any answer to a request with a
        /// body), how long the server goes on reading and discarding what the client still sends before it closes:
        /// closing at once would reset the connection, and a client still sending would see the reset instead of the
        /// answer (`Socket.closeLingering`).
        public var lingeringTime: Duration = .seconds(2)
        /// After such an answer, the most bytes the server reads and discards before it closes all the same.
        public var maximumLingeringSize = 1024 * 1024
        /// How many connections are served at once.
        public var maximumConnections = 64
        /// How the server waits out the `slow` fault's delay: the thread sleeps; a test may record the delay instead.
        public var sleep: @Sendable (Duration) -> Void = { Thread.sleep(forTimeInterval: $0 / .seconds(1)) }
        /// What a test makes the server's system calls do, its listener's and every connection's.
        ///
        /// `SystemCallFaults`, made by POITestSupport's `FaultInjector`; `.none`, every call as usual, outside tests.
        public var faults = SystemCallFaults.none
        /// How the accept loop waits before it tries again when no descriptor is left for a connection
        /// (`SocketListener`): `nil` waits, and `stop()` ends the wait; a test may record the waits instead.
        public var acceptPause: (@Sendable (Duration) -> Void)? = nil

        /// The default configuration: the bundled places on 127.0.0.1, a free port, no fault.
        public init() {}

        /// The base URL of a server with this configuration listening on `port`, for example
        /// `http://127.0.0.1:49152`; an IPv6 address is written in brackets, `http://[::1]:49152`.
        public func url(port: UInt16) -> URL {
            let host = host.contains(":") ? "[\(host)]" : host
            return URL(string: "http://\(host):\(port)")!
        }
    }

    /// The configuration it runs with.
    public let configuration: Configuration
    /// The port it listens on.
    public let port: UInt16

    private let listener: SocketListener
    private let slots: DispatchSemaphore
    /// How many of `slots` connections hold: taken when a connection is accepted, given back when it has been served.
    private let held = Lock(0)
    private let finished = DispatchSemaphore(value: 0)
    private let loopEnding: (@Sendable () -> Void)?

    /// Binds, listens and starts serving on a thread of its own.
    public convenience init(configuration: Configuration = Configuration()) throws(SocketError) {
        try self.init(configuration: configuration, loopEnding: nil)
    }

    /// A server for a test: `loopEnding` runs on the accept loop's thread as the loop ends, before
    /// `waitUntilStopped()` may return (a test holds the loop there to see that the wait waits for it).
    init(configuration: Configuration, loopEnding: (@Sendable () -> Void)?) throws(SocketError) {
        self.configuration = configuration
        self.loopEnding = loopEnding
        listener = try SocketListener(
            host: configuration.host, port: configuration.port, faults: configuration.faults,
            pause: configuration.acceptPause)
        port = listener.port
        slots = DispatchSemaphore(value: configuration.maximumConnections)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "StubServer \(port)"
        thread.start()
    }

    /// The name of a thread that holds an answer midway: the `stall` fault's, once the head and half the body are sent.
    ///
    /// Where a test, or `ps -L`, sees that the server is midway through its answer. Linux lists a thread's name in
    /// `/proc/PID/task/TID/comm`, 15 bytes at most.
    public static let stalledThreadName = "stalled midway"

    /// The file where the system keeps the calling thread's name: Linux's `/proc/thread-self/comm`; `nil` where
    /// there is none (Darwin, which has no `/proc`).
    static let threadNameFile: String? = {
        #if os(Linux)
            "/proc/thread-self/comm"
        #else
            nil
        #endif
    }()

    /// Names the calling thread, where `ps -L` and `/proc/PID/task/TID/comm` show it.
    ///
    /// Where the system keeps the name in a file (`threadNameFile`), it is written there, not through
    /// `Thread.current.name`: on Linux, Foundation's setter did not always reach a thread of `Thread.detachNewThread`
    /// (under ThreadSanitizer with the other core busy, a stalled thread kept its old name in about one run of the
    /// end-to-end tests in twenty, and the test that waits for the name waited in vain). Where there is no such file,
    /// or it cannot be written, the name goes through Foundation.
    static func nameThisThread(_ name: String, file: String? = threadNameFile) {
        if let file, (try? Data(name.utf8).write(to: URL(fileURLWithPath: file))) != nil { return }
        Thread.current.name = name
    }

    /// The server's base URL, for example `http://127.0.0.1:49152` (`Configuration.url(port:)`).
    public var url: URL {
        configuration.url(port: port)
    }

    /// Stops accepting connections and ends the ones being served.
    ///
    /// Safe to call more than once.
    public func stop() {
        listener.stop()
    }

    /// How many connections hold a place among `maximumConnections` now: accepted, and not yet served and closed.
    ///
    /// Zero once every connection has ended. A connection that never gives its place back (a path that returns
    /// before it) keeps it above zero for good, and a test that waits for zero after `stop()` fails, naming the
    /// wait (`StubServerIntegrationTests`).
    public var connectionsHeld: Int {
        held.withLock { $0 }
    }

    /// Gives back the places that connections never gave back, before the semaphore that counts them is freed.
    ///
    /// libdispatch stops the process (SIGILL, "Semaphore object deallocated while in use") when a semaphore is freed
    /// with a value below the one it was made with: a leaked place would crash the whole test binary, every later
    /// test's result lost, at whatever moment the last reference went. The tests see the leak in `connectionsHeld`
    /// instead, as a named failure.
    deinit {
        for _ in 0..<held.withLock({ $0 }) { slots.signal() }
    }

    /// Blocks until the accept loop has ended after `stop()`.
    public func waitUntilStopped() {
        finished.wait()
        finished.signal()
    }

    private func acceptLoop() {
        defer { finished.signal() }
        while true {
            slots.wait()
            guard let client = listener.accept() else {
                slots.signal()
                loopEnding?()
                return
            }
            held.withLock { $0 += 1 }
            // A thread per connection: the I/O blocks (see BlockingCall for why not a global queue).
            BlockingCall.start { [self] in
                serve(client)
                client.close()
                held.withLock { $0 -= 1 }
                slots.signal()
            }
        }
    }

    /// Reads one request head, answers it and returns; the caller closes the connection, unless an answer sent before
    /// the request was read whole has closed it already, gracefully.
    private func serve(_ client: SocketDescriptor) {
        let deadline = ContinuousClock.now.advanced(by: configuration.idleTimeout)
        var received: [UInt8] = []
        while true {
            // The limit is the head's, checked after every read: a head read whole in one go is measured too.
            switch HTTPRequest.parse(received, maximumSize: configuration.maximumRequestSize) {
            case .complete(let request):
                answer(request, on: client)
                return
            case .invalid(let reason, let status):
                send(.error(status, reason), to: client)
                closeLingering(client)
                return
            case .tooLarge:
                let limit = configuration.maximumRequestSize
                send(.error(431, "the request head is larger than \(limit) bytes"), to: client)
                closeLingering(client)
                return
            case .incomplete:
                do {
                    received += try Socket.receive(from: client, deadline: deadline)
                } catch .timedOut {
                    send(.error(408, "no complete request within \(configuration.idleTimeout)"), to: client)
                    return
                } catch .closed where !received.isEmpty {
                    // The client has finished sending, and what it sent is not a whole head: said, not just closed.
                    send(
                        .error(400, "the request ended before its head did (no empty line after the headers)"),
                        to: client)
                    return
                } catch {
                    return
                }
            }
        }
    }

    private func answer(_ request: HTTPRequest, on client: SocketDescriptor) {
        let includeBody = request.method != "HEAD"
        switch configuration.routes.reply(to: request) {
        case .respond(let response):
            send(response, to: client, includingBody: includeBody)
        case .respondAfter(let delay, let response):
            // The `slow` fault: the delay is the behaviour under test, played by the server, not by a test.
            configuration.sleep(delay)
            send(response, to: client, includingBody: includeBody)
        case .stallMidway(let delay, let response):
            // The `stall` fault: the head and half the body, the server's slow delay, then the rest.
            let bytes = response.serialized(includingBody: includeBody)
            let midway = bytes.count - (includeBody ? response.body.count / 2 : 0)
            guard (try? Socket.send(Array(bytes[..<midway]), to: client)) != nil else { return }
            Self.nameThisThread(Self.stalledThreadName)
            configuration.sleep(delay)
            try? Socket.send(Array(bytes[midway...]), to: client)
        case .drop:
            return
        }
        // The body is never read: its client may still be sending it.
        if request.announcesBody {
            closeLingering(client)
        }
    }

    /// Closes the connection gracefully after an answer sent while the client may still be sending its request.
    private func closeLingering(_ client: SocketDescriptor) {
        let deadline = ContinuousClock.now.advanced(by: configuration.lingeringTime)
        Socket.closeLingering(client, discardingAtMost: configuration.maximumLingeringSize, until: deadline)
    }

    private func send(_ response: HTTPResponse, to client: SocketDescriptor, includingBody: Bool = true) {
        try? Socket.send(response.serialized(includingBody: includingBody), to: client)
    }
}
