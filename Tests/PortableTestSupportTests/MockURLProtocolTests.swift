import Foundation
import PortableTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stub transport itself: isolation between parallel tests, unexpected requests, bodies, cancellation; and why
/// sessions list it instead of relying on `URLProtocol.registerClass`.
///
/// In swift-corelibs-foundation 6.3.1 a class registered with `URLProtocol.registerClass` answers the requests of
/// `URLSession.shared`, but a session made from `URLSessionConfiguration.default` (or `.ephemeral`) lists only the
/// built-in protocol classes and never asks for the registered ones (swift-corelibs-foundation #4940, open): its
/// `http` request goes to the network, here a loopback port nothing listens on. Darwin's URL loading system does the same
/// by design: a registered class reaches `NSURLConnection` and the shared session. That test records the gap as a known
/// issue on both; should it close, the known issue stops happening, the test fails, and the docs that tell users to
/// list the stub in `protocolClasses` get looked at again instead of going stale. Registering is global to the
/// process, so each registration check runs in a child process of its own, an exit test.
@Suite("MockURLProtocol", .timeLimit(.minutes(1)))
struct MockURLProtocolTests {
    static func echo(status: Int = 200) -> MockURLProtocol.RequestHandler {
        { request in
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: nil, headerFields: nil)!
            return (response, request.httpBody ?? Data((request.url?.path ?? "").utf8))
        }
    }

    /// Sends `request` through `session` and returns what came back.
    static func send(_ request: URLRequest, through session: URLSession) async throws -> (Data?, Int?, (any Error)?) {
        try await boundedContinuation("the data task's completion") { continuation in
            session.dataTask(with: request) { data, response, error in
                continuation.resume(returning: (data, (response as? HTTPURLResponse)?.statusCode, error))
            }.resume()
        }
    }

    @Test("Stubs live at the same time answer only their own requests")
    func parallelStubsAreIsolated() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let handler: MockURLProtocol.RequestHandler = { request in
                        let response = HTTPURLResponse(
                            url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
                        return (response, Data("stub \(index)".utf8))
                    }
                    try await MockURLProtocol.withStub(handler) { stub in
                        let url = stub.baseURL.appendingPathComponent("locations")
                        let (data, status, error) = try await Self.send(URLRequest(url: url), through: stub.session)
                        #expect(error == nil)
                        #expect(status == 200)
                        #expect(data.map { String(decoding: $0, as: UTF8.self) } == "stub \(index)")
                        #expect(stub.requests.count == 1)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("A request no handler expects fails at once with a message that says how to fix it")
    func unexpectedRequest() async throws {
        let session = MockURLProtocol.makeSession()
        defer { session.invalidateAndCancel() }
        let url = URL(string: "https://nobody-expects-this.mock.invalid/locations?lat=1&long=2")!
        let (data, status, error) = try await Self.send(URLRequest(url: url), through: session)
        #expect(data == nil || data?.isEmpty == true)
        #expect(status == nil)
        let unexpected = try #require(error as? MockURLProtocol.UnexpectedRequest, "\(String(describing: error))")
        #expect(unexpected.description.contains("GET https://nobody-expects-this.mock.invalid/locations?lat=1&long=2"))
        #expect(unexpected.description.contains("MockURLProtocol.withStub"))
    }

    @Test("A stub's host stops answering when its scope ends")
    func stubIsUnregistered() async throws {
        let baseURL = MockURLProtocol.withStub(Self.echo()) { $0.baseURL }
        let session = MockURLProtocol.makeSession()
        defer { session.invalidateAndCancel() }
        let (_, _, error) = try await Self.send(URLRequest(url: baseURL), through: session)
        #expect(error is MockURLProtocol.UnexpectedRequest)
    }

    @Test("The handler sees the body whether it was sent as httpBody or as httpBodyStream")
    func requestBodies() async throws {
        let payload = Data(#"{"name": "Japanese Friendship Garden"}"#.utf8)
        try await MockURLProtocol.withStub(Self.echo()) { stub in
            var inline = URLRequest(url: stub.baseURL.appendingPathComponent("inline"))
            inline.httpMethod = "POST"
            inline.httpBody = payload
            var streamed = URLRequest(url: stub.baseURL.appendingPathComponent("streamed"))
            streamed.httpMethod = "POST"
            streamed.httpBodyStream = InputStream(data: payload)

            for request in [inline, streamed] {
                let (data, status, error) = try await Self.send(request, through: stub.session)
                #expect(error == nil)
                #expect(status == 200)
                #expect(data == payload, "\(request.url!.path)")
            }
            try #require(stub.requests.count == 2)
            #expect(stub.requests.allSatisfy { $0.httpBody == payload && $0.httpMethod == "POST" })
        }
    }

    @Test("An error thrown by the handler is the error the task fails with")
    func handlerError() async throws {
        let failing: MockURLProtocol.RequestHandler = { _ in throw URLError(.badServerResponse) }
        try await MockURLProtocol.withStub(failing) { stub in
            let (_, _, error) = try await Self.send(URLRequest(url: stub.baseURL), through: stub.session)
            #expect((error as? URLError)?.code == .badServerResponse)
        }
    }

    @Test("An answered request is not reported as cancelled")
    func answeredIsNotCancelled() async throws {
        try await MockURLProtocol.withStub(Self.echo(status: 204)) { stub in
            let (_, status, _) = try await Self.send(URLRequest(url: stub.baseURL), through: stub.session)
            #expect(status == 204)
            #expect(stub.requests.count == 1)
            #expect(stub.cancelledRequests.isEmpty)
        }
    }

    // MARK: URLProtocol.registerClass

    /// Answers every request with `intercepted`, without the network.
    final class InterceptingProtocol: URLProtocol {
        override class func canInit(with request: URLRequest) -> Bool { true }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
        override func startLoading() {
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: Data("intercepted".utf8))
            client?.urlProtocolDidFinishLoading(self)
        }
        override func stopLoading() {}
    }

    /// In the child process: registers the class, sends a GET through the session `makeSession` makes to port 1 on
    /// loopback (where nothing listens: a request the class does not answer fails at once), and exits 0 when the
    /// class answered.
    static func exitZeroIfRegisteredClassAnswers(_ makeSession: () -> URLSession) async -> Never {
        _ = URLProtocol.registerClass(InterceptingProtocol.self)
        let body = try? await makeSession().data(from: URL(string: "http://127.0.0.1:1/locations")!).0
        exit(body.map { String(decoding: $0, as: UTF8.self) } == "intercepted" ? 0 : 1)
    }

    @Test("A registered class answers the requests of URLSession.shared")
    func sharedSession() async {
        await #expect(processExitsWith: .success) {
            await Self.exitZeroIfRegisteredClassAnswers { URLSession.shared }
        }
    }

    @Test(
        "A registered class answers the requests of a session made from URLSessionConfiguration.default",
        .bug("https://github.com/swiftlang/swift-corelibs-foundation/issues/4940", "registered protocols not used")
    )
    func configuredSession() async {
        // Not on Linux (corelibs #4940), nor on Darwin, where Apple's Developer Technical Support says registering
        // "makes it available to NSURLConnection and the shared NSURLSession" only: list the stub in protocolClasses.
        await withKnownIssue("a registered class reaches the shared session only: the request goes to the network") {
            await #expect(processExitsWith: .success) {
                await Self.exitZeroIfRegisteredClassAnswers { URLSession(configuration: .default) }
            }
        }
    }
}
