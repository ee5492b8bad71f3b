public import Foundation
import POILock
import Testing
import XCTest

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A `URLProtocol` that answers requests from a test's handler instead of the network: the talk's
/// `MockURLProtocol` (WWDC 2018 session 417, "Testing network requests").
///
/// Put it in a session's configuration (`configuration.protocolClasses = [MockURLProtocol.self]`): on Linux a
/// session made from a configuration ignores classes registered with `URLProtocol.registerClass`
/// (swift-corelibs-foundation #4940), and registering would reach every session of the process anyway.
///
/// Two ways to answer, both safe when tests run in parallel:
/// - `MockURLProtocol.requestHandler`, the talk's static property, for XCTest. It is one slot for the process,
///   which is safe because XCTest runs one test at a time in a process (`swift test --parallel` starts one process
///   per test), and it is cleared when each XCTest test finishes, so a handler never answers the next test.
///   Setting it from a Swift Testing test, where tests run in parallel in one process, records an issue.
/// - `MockURLProtocol.withStub(_:_:)` gives a test its own host (`https://<uuid>.mock.invalid`) routed to its
///   own handler, and a session that uses the protocol. Any number of these can be live at once.
///
/// A request no handler expects fails at once with `MockURLProtocol.UnexpectedRequest` (and, inside an XCTest
/// test, with `XCTFail`), so it never hangs. A handler can throw `MockURLProtocol.Unanswered()` to leave the
/// request open, like a server that never answers, until the task is cancelled; the cancellation is reported to
/// `cancellationHandler` or the stub. A body sent as `httpBodyStream` (as Darwin does for uploads) is read into
/// `httpBody` before the handler sees the request.
public final class MockURLProtocol: URLProtocol {
    /// Answers a request with a response and its body, or throws to fail it with that error.
    public typealias RequestHandler = @Sendable (URLRequest) throws -> (HTTPURLResponse, Data)

    /// The talk's handler for XCTest tests; see the type's documentation for why one slot is safe there.
    ///
    /// Swift 6: the handler is `@Sendable` because `URLSession` calls it on its own queue.
    public static var requestHandler: RequestHandler? {
        get { registry.withLock { $0.sharedHandler } }
        set {
            warnIfInsideSwiftTesting(#function)
            SlotReset.shared.install()
            registry.withLock { $0.sharedHandler = newValue }
        }
    }

    /// Hears of cancelled requests among those `requestHandler` answers.
    ///
    /// It is called when the loading system stops a request before it was answered, which means the request was
    /// cancelled. Cleared after each XCTest test, like `requestHandler`.
    public static var cancellationHandler: (@Sendable (URLRequest) -> Void)? {
        get { registry.withLock { $0.sharedCancellationHandler } }
        set {
            warnIfInsideSwiftTesting(#function)
            SlotReset.shared.install()
            registry.withLock { $0.sharedCancellationHandler = newValue }
        }
    }

    /// Thrown by a handler to leave its request open, without response or error, until the task is cancelled.
    public struct Unanswered: Error {
        /// Creates the marker.
        public init() {}
    }

    /// The error a request fails with when no handler expects it.
    public struct UnexpectedRequest: Error, CustomStringConvertible {
        /// The request nobody expected.
        public let request: URLRequest

        /// Says which request arrived and how to give it a handler.
        public var description: String {
            let method = request.httpMethod ?? "GET"
            let url = request.url?.absoluteString ?? "<no URL>"
            return "MockURLProtocol received \(method) \(url) but no handler expects it: set "
                + "MockURLProtocol.requestHandler (XCTest) or send it to the host of MockURLProtocol.withStub"
        }
    }

    // MARK: URLProtocol

    /// Claims every request of a session that lists this class.
    public override class func canInit(with request: URLRequest) -> Bool {
        true
    }

    /// Leaves the request as it is.
    public override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Whether this load was answered (response or error), so that `stopLoading` can tell a cancellation.
    private let answered = Lock(false)

    /// Hands the request to its handler and passes the answer to the loading system.
    public override func startLoading() {
        let request = Self.readingBodyStream(of: request)
        let route = Self.route(for: request)
        guard let route else {
            let error = UnexpectedRequest(request: request)
            Self.reportUnexpected(error)
            finish(with: .failure(error))
            return
        }
        route.record?(request)
        do {
            finish(with: .success(try route.handler(request)))
        } catch is Unanswered {
            return
        } catch {
            finish(with: .failure(error))
        }
    }

    /// Reports a cancellation when the system stops a request that was not answered.
    public override func stopLoading() {
        let wasAnswered = answered.withLock { answered in
            defer { answered = true }
            return answered
        }
        guard !wasAnswered else { return }
        let request = Self.readingBodyStream(of: request)
        Self.route(for: request)?.cancelled?(request)
    }

    private func finish(with result: Result<(HTTPURLResponse, Data), any Error>) {
        let alreadyAnswered = answered.withLock { answered in
            defer { answered = true }
            return answered
        }
        guard !alreadyAnswered else { return }
        switch result {
        case .success(let (response, data)):
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: data)
            client?.urlProtocolDidFinishLoading(self)
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
        }
    }
}

// MARK: - Routing

extension MockURLProtocol {
    /// Where a request goes: its handler, and what to tell when it is seen or cancelled.
    struct Route: Sendable {
        var handler: RequestHandler
        var record: (@Sendable (URLRequest) -> Void)?
        var cancelled: (@Sendable (URLRequest) -> Void)?
    }

    /// The handlers in force: the talk's shared slot, and the stubs by host.
    struct Registry: Sendable {
        var sharedHandler: RequestHandler?
        var sharedCancellationHandler: (@Sendable (URLRequest) -> Void)?
        var stubs: [String: Route] = [:]
    }

    static let registry = Lock(Registry())

    /// The stub that owns the request's host, else the shared handler, else nothing.
    static func route(for request: URLRequest) -> Route? {
        registry.withLock { registry in
            if let host = request.url?.host, let route = registry.stubs[host] {
                return route
            }
            return registry.sharedHandler.map { Route(handler: $0, cancelled: registry.sharedCancellationHandler) }
        }
    }

    /// The request with a streamed body read into `httpBody`, so that handlers only look at `httpBody`.
    static func readingBodyStream(of request: URLRequest) -> URLRequest {
        guard request.httpBody == nil, let stream = request.httpBodyStream else { return request }
        var body = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            body.append(contentsOf: buffer[..<count])
        }
        var copy = request
        copy.httpBodyStream = nil
        copy.httpBody = body
        return copy
    }

    /// Fails the running XCTest test, as the talk's `XCTFail("Received unexpected request with no handler set")`.
    private static func reportUnexpected(_ error: UnexpectedRequest) {
        if SlotReset.shared.isXCTestRunning {
            XCTFail(error.description)
        }
    }

    /// Records an issue when the shared slot is used by a Swift Testing test, where tests share the process.
    private static func warnIfInsideSwiftTesting(_ property: String) {
        guard Test.current != nil else { return }
        Issue.record(
            """
            MockURLProtocol.\(property) is one slot for the whole process and Swift Testing runs tests in \
            parallel: use MockURLProtocol.withStub to give this test its own host
            """
        )
    }
}
