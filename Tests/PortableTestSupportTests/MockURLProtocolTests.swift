import Foundation
import POILock
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
        #expect(unexpected.request.url == url && unexpected.request.httpMethod == "GET")
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

    @Test(
        "The handler sees every byte of a streamed body, around the 16 KiB it is read by, 64 KiB, and past them",
        arguments: [16_383, 16_384, 16_385, 65_535, 65_536, 65_537, 1 << 20])
    func streamedBodySizes(size: Int) async throws {
        let payload = Data(BuiltProductTests.pattern(size).utf8)
        try await MockURLProtocol.withStub(Self.echo()) { stub in
            var request = URLRequest(url: stub.baseURL.appendingPathComponent("upload"))
            request.httpMethod = "POST"
            request.httpBodyStream = InputStream(data: payload)
            let (data, status, error) = try await Self.send(request, through: stub.session)
            #expect(error == nil)
            #expect(status == 200)
            #expect(stub.requests.first?.httpBody == payload, "the body the handler saw")
            #expect(data == payload, "the body echoed back")
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

    // MARK: A scope that ends by throwing or by cancellation

    struct Thrown: Error, Equatable {}

    /// Expects `gone`'s host to answer no more, and a new stub to answer its own requests and to see only those:
    /// what a stub whose scope ended leaves behind.
    static func expectOnlyItsOwnRequests(after gone: MockURLProtocol.Stub) async throws {
        let receivedBefore = gone.requests.count
        try await MockURLProtocol.withStub(Self.echo()) { stub in
            let own = stub.baseURL.appendingPathComponent("own")
            let (data, status, _) = try await Self.send(URLRequest(url: own), through: stub.session)
            #expect(status == 200)
            #expect(data == Data("/own".utf8))
            let (_, _, error) = try await Self.send(URLRequest(url: gone.baseURL), through: stub.session)
            #expect(error is MockURLProtocol.UnexpectedRequest, "the ended stub's host still answers")
            #expect(stub.requests.map(\.url) == [own])
        }
        #expect(gone.requests.count == receivedBefore, "the ended stub's handler was called")
    }

    @Test("A body that throws: its error comes through, its host is unregistered, and the next stub works alone")
    func bodyThrows() async throws {
        let thrown = Lock<MockURLProtocol.Stub?>(nil)
        #expect(throws: Thrown()) {
            try MockURLProtocol.withStub(Self.echo()) { stub in
                thrown.withLock { $0 = stub }
                throw Thrown()
            }
        }
        try await Self.expectOnlyItsOwnRequests(after: try #require(thrown.withLock { $0 }))
    }

    @Test("An async body that throws after a request: its error comes through, its host is unregistered")
    func asyncBodyThrows() async throws {
        let thrown = Lock<MockURLProtocol.Stub?>(nil)
        await #expect(throws: Thrown()) {
            try await MockURLProtocol.withStub(Self.echo()) { stub in
                thrown.withLock { $0 = stub }
                let (_, status, _) = try await Self.send(URLRequest(url: stub.baseURL), through: stub.session)
                #expect(status == 200)
                throw Thrown()
            }
        }
        let gone = try #require(thrown.withLock { $0 })
        #expect(gone.requests.count == 1)
        try await Self.expectOnlyItsOwnRequests(after: gone)
    }

    @Test("An async body whose task is cancelled sees the cancellation; its host is unregistered when it ends")
    func asyncBodyCancelled() async throws {
        let never = ManualClock()
        let entered = Lock<MockURLProtocol.Stub?>(nil)
        let waiting = Task {
            try await MockURLProtocol.withStub(Self.echo()) { stub in
                entered.withLock { $0 = stub }
                // Not a request: cancelling an in-flight URLSession load can deadlock on Linux (corelibs #5412).
                try await never.sleep(for: .seconds(3600))
            }
        }
        try await never.waitForSleepers()
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the cancelled body's end")
        }
        try await Self.expectOnlyItsOwnRequests(after: try #require(entered.withLock { $0 }))
    }

    // MARK: The .stubbed trait

    @Test("The .stubbed trait's scope around a body that throws: the error comes through, the stub ends with it")
    func stubbedScopeThrows() async throws {
        let trait = MockURLProtocol.StubTrait.stubbed(Self.echo())
        let test = try #require(Test.current)
        let thrown = Lock<MockURLProtocol.Stub?>(nil)
        await #expect(throws: Thrown()) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                thrown.withLock { $0 = MockURLProtocol.Stub.current }
                throw Thrown()
            }
        }
        #expect(MockURLProtocol.Stub.current == nil)
        let gone = try #require(thrown.withLock { $0 })
        try await Self.expectOnlyItsOwnRequests(after: gone)
        let again = Lock<MockURLProtocol.Stub?>(nil)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let stub = try #require(MockURLProtocol.Stub.current)
            again.withLock { $0 = stub }
            let (_, status, _) = try await Self.send(URLRequest(url: stub.baseURL), through: stub.session)
            #expect(status == 200)
        }
        let next = try #require(again.withLock { $0 })
        #expect(next !== gone, "the next scope got the ended stub")
        #expect(next.requests.count == 1)
    }

    @Test("The .stubbed trait's scope whose task is cancelled: the cancellation comes through, the stub ends with it")
    func stubbedScopeCancelled() async throws {
        let trait: MockURLProtocol.StubTrait = .stubbed(Self.echo())
        let test = try #require(Test.current)
        let never = ManualClock()
        let entered = Lock<MockURLProtocol.Stub?>(nil)
        let scoped = Task {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                entered.withLock { $0 = MockURLProtocol.Stub.current }
                try await never.sleep(for: .seconds(3600))
            }
        }
        try await never.waitForSleepers()
        scoped.cancel()
        await #expect(throws: CancellationError.self) {
            try await scoped.boundedValue("the cancelled scope's end")
        }
        try await Self.expectOnlyItsOwnRequests(after: try #require(entered.withLock { $0 }))
    }

    /// The hosts the cases of `StubbedSuite/ownStub(_:)` were given.
    static let stubbedHosts = Lock<Set<String>>([])

    /// A suite with `.stubbed`: the trait applies to every test in it (`isRecursive`), each case getting its own stub.
    @Suite(.stubbed(MockURLProtocolTests.echo()))
    struct StubbedSuite {
        @Test("Each case of a test in a suite with .stubbed gets a stub of its own", arguments: 1...3)
        func ownStub(_ index: Int) async throws {
            #expect(MockURLProtocol.StubTrait.stubbed(MockURLProtocolTests.echo()).isRecursive)
            let stub = try #require(MockURLProtocol.Stub.current)
            let isNew = MockURLProtocolTests.stubbedHosts.withLock { $0.insert(stub.baseURL.absoluteString).inserted }
            #expect(isNew, "case \(index) got the stub another case had")
            let request = URLRequest(url: stub.baseURL)
            let (_, status, _) = try await MockURLProtocolTests.send(request, through: stub.session)
            #expect(status == 200)
            #expect(stub.requests.count == 1, "another case's requests reached this stub")
        }
    }

    // MARK: URLProtocol's class methods

    @Test(
        "It claims every request and leaves it as it is: any scheme, host, method, header and body",
        arguments: [
            "https://0a1b2c3d.mock.invalid/locations?lat=1&long=2", "http://127.0.0.1:1/", "ftp://example.com/a#part",
        ])
    func claimsEveryRequest(url: String) throws {
        var request = URLRequest(url: try #require(URL(string: url)))
        #expect(MockURLProtocol.canInit(with: request))
        #expect(MockURLProtocol.canonicalRequest(for: request) == request)
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("{}".utf8)
        #expect(MockURLProtocol.canInit(with: request))
        let canonical = MockURLProtocol.canonicalRequest(for: request)
        #expect(canonical == request)
        #expect(canonical.url?.absoluteString == url)
        #expect(canonical.httpMethod == "PUT")
        #expect(canonical.allHTTPHeaderFields == ["Content-Type": "application/json"])
        #expect(canonical.httpBody == Data("{}".utf8))
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
