import Foundation
import POITestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stub transport itself: isolation between parallel tests, unexpected requests, bodies, cancellation.
@Suite("MockURLProtocol", .timeLimit(.minutes(1)))
struct MockURLProtocolTests {
    static func echo(status: Int = 200) -> MockURLProtocol.RequestHandler {
        { request in
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: nil, headerFields: nil)!
            return (response, request.httpBody ?? Data((request.url?.path ?? "").utf8))
        }
    }

    /// Sends `request` through `session` and returns what came back.
    static func send(_ request: URLRequest, through session: URLSession) async -> (Data?, Int?, (any Error)?) {
        await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                continuation.resume(returning: (data, (response as? HTTPURLResponse)?.statusCode, error))
            }.resume()
        }
    }

    @Test("Stubs live at the same time answer only their own requests")
    func parallelStubsAreIsolated() async {
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let handler: MockURLProtocol.RequestHandler = { request in
                        let response = HTTPURLResponse(
                            url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
                        return (response, Data("stub \(index)".utf8))
                    }
                    await MockURLProtocol.withStub(handler) { stub in
                        let url = stub.baseURL.appendingPathComponent("locations")
                        let (data, status, error) = await Self.send(URLRequest(url: url), through: stub.session)
                        #expect(error == nil)
                        #expect(status == 200)
                        #expect(data.map { String(decoding: $0, as: UTF8.self) } == "stub \(index)")
                        #expect(stub.requests.count == 1)
                    }
                }
            }
        }
    }

    @Test("A request no handler expects fails at once with a message that says how to fix it")
    func unexpectedRequest() async throws {
        let session = MockURLProtocol.makeSession()
        defer { session.invalidateAndCancel() }
        let url = URL(string: "https://nobody-expects-this.mock.invalid/locations?lat=1&long=2")!
        let (data, status, error) = await Self.send(URLRequest(url: url), through: session)
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
        let (_, _, error) = await Self.send(URLRequest(url: baseURL), through: session)
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
                let (data, status, error) = await Self.send(request, through: stub.session)
                #expect(error == nil)
                #expect(status == 200)
                #expect(data == payload, "\(request.url!.path)")
            }
            try #require(stub.requests.count == 2)
            #expect(stub.requests.allSatisfy { $0.httpBody == payload && $0.httpMethod == "POST" })
        }
    }

    @Test("An error thrown by the handler is the error the task fails with")
    func handlerError() async {
        let failing: MockURLProtocol.RequestHandler = { _ in throw URLError(.badServerResponse) }
        await MockURLProtocol.withStub(failing) { stub in
            let (_, _, error) = await Self.send(URLRequest(url: stub.baseURL), through: stub.session)
            #expect((error as? URLError)?.code == .badServerResponse)
        }
    }

    @Test("An answered request is not reported as cancelled")
    func answeredIsNotCancelled() async {
        await MockURLProtocol.withStub(Self.echo(status: 204)) { stub in
            let (_, status, _) = await Self.send(URLRequest(url: stub.baseURL), through: stub.session)
            #expect(status == 204)
            #expect(stub.requests.count == 1)
            #expect(stub.cancelledRequests.isEmpty)
        }
    }
}
