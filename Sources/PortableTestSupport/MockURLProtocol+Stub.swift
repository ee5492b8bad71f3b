public import Foundation
import POILock

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension MockURLProtocol {
    /// A test's own host on `MockURLProtocol`: requests to `baseURL` go to this stub's handler, whatever other
    /// tests run at the same time.
    public final class Stub: Sendable {
        /// `https://<uuid>.mock.invalid`: a host no other stub has, in a top-level domain that never resolves.
        public let baseURL: URL
        /// A session whose configuration lists `MockURLProtocol`, with no cache.
        public let session: URLSession

        private let log = Lock((received: [URLRequest](), cancelled: [URLRequest]()))

        init() {
            let host = "\(UUID().uuidString.lowercased()).mock.invalid"
            baseURL = URL(string: "https://\(host)")!
            session = MockURLProtocol.makeSession()
        }

        /// The requests the handler was called with, in order, with streamed bodies read into `httpBody`.
        public var requests: [URLRequest] {
            log.withLock { $0.received }
        }

        /// The requests that were stopped before they were answered, that is, cancelled.
        public var cancelledRequests: [URLRequest] {
            log.withLock { $0.cancelled }
        }

        var host: String {
            baseURL.host!
        }

        func route(handler: @escaping RequestHandler, onCancel: (@Sendable (URLRequest) -> Void)?) -> Route {
            Route(
                handler: handler,
                record: { request in self.log.withLock { $0.received.append(request) } },
                cancelled: { request in
                    self.log.withLock { $0.cancelled.append(request) }
                    onCancel?(request)
                }
            )
        }
    }

    /// A session whose configuration lists `MockURLProtocol`: ephemeral, without a URL cache.
    ///
    /// Linux: the cache is turned off because FoundationNetworking looks a request up in it on a background queue
    /// before the protocol exists, and a cancel that lands in that window can trap.
    public static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [MockURLProtocol.self]
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }

    /// Runs `body` with a stub of its own, whose requests `handler` answers.
    ///
    /// `onCancel` hears of cancelled requests. The stub's host is unregistered and its session invalidated when `body`
    /// returns or throws; inside a Swift Testing test the requests it was sent are then recorded as an attachment. A
    /// stub made afterwards sees none of this one's requests.
    ///
    /// The call throws only what `body` throws, as it is (typed throws: the handler's errors go to the loading system).
    public static func withStub<Result, Failure: Error>(
        _ handler: @escaping RequestHandler,
        onCancel: (@Sendable (URLRequest) -> Void)? = nil,
        _ body: (Stub) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let stub = register(handler, onCancel: onCancel)
        defer { unregister(stub) }
        return try body(stub)
    }

    /// The `async` form of `withStub(_:onCancel:_:)`.
    ///
    /// Cancelling the calling task stops nothing here: `body` sees the cancellation as any code does, and the stub is
    /// unregistered when `body` ends, however it ends.
    public static func withStub<Result, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping RequestHandler,
        onCancel: (@Sendable (URLRequest) -> Void)? = nil,
        _ body: (Stub) async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let stub = register(handler, onCancel: onCancel)
        defer { unregister(stub) }
        return try await body(stub)
    }

    private static func register(_ handler: @escaping RequestHandler, onCancel: (@Sendable (URLRequest) -> Void)?)
        -> Stub
    {
        let stub = Stub()
        let route = stub.route(handler: handler, onCancel: onCancel)
        registry.withLock { $0.stubs[stub.host] = route }
        return stub
    }

    private static func unregister(_ stub: Stub) {
        registry.withLock { $0.stubs[stub.host] = nil }
        OutputAttachment.recordRequests(stub.requests, to: stub.host)
        stub.session.invalidateAndCancel()
    }
}
