import Foundation
import POIDomain
import POINetworking
import PortableTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Swift Testing twin of `APIRequestLoaderXCTests`.
///
/// Swift Testing runs these in parallel in one process, so each test takes its own host with
/// `MockURLProtocol.withStub` instead of the talk's shared handler, and every scenario runs against both forms of
/// the loader: the talk's completion handler and `async`.
@Suite("APIRequestLoader over MockURLProtocol", .timeLimit(.minutes(1)))
struct APIRequestLoaderTests {
    /// The loader's two public forms.
    enum Form: String, CaseIterable, CustomTestStringConvertible {
        case completionHandler
        case async

        var testDescription: String { rawValue }
    }

    static let convention = Coordinate(latitude: 37.3293, longitude: -121.8893)

    /// Loads through `form` and returns the result; the completion handler must be called exactly once.
    static func load(
        _ form: Form,
        with stub: MockURLProtocol.Stub,
        at coordinate: Coordinate = convention
    ) async throws -> Result<[PointOfInterest], any Error> {
        let loader = APIRequestLoader(
            apiRequest: PointsOfInterestRequest(baseURL: stub.baseURL),
            urlSession: stub.session
        )
        switch form {
        case .async:
            do {
                return .success(try await loader.loadAPIRequest(requestData: coordinate))
            } catch {
                return .failure(error)
            }
        case .completionHandler:
            return try await boundedContinuation("loadAPIRequest's completion handler") { continuation in
                loader.loadAPIRequest(requestData: coordinate) { places, error in
                    if let places {
                        continuation.resume(returning: .success(places))
                    } else {
                        continuation.resume(returning: .failure(error ?? APIError.notHTTPResponse))
                    }
                }
            }
        }
    }

    /// Expects the error of a cancelled load.
    ///
    /// The caller's location is passed on, so a failure is reported at the line of the test that called this.
    static func expectCancelled(_ error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            (error as? URLError)?.code == .cancelled, "expected URLError.cancelled, got \(String(describing: error))",
            sourceLocation: sourceLocation)
    }

    static func answer(_ body: String, status: Int = 200) -> MockURLProtocol.RequestHandler {
        { request in
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: nil, headerFields: nil)!
            return (response, Data(body.utf8))
        }
    }

    @Test("The outgoing request is a GET of /locations with the coordinate", arguments: Form.allCases)
    func outgoingRequest(form: Form) async throws {
        try await MockURLProtocol.withStub(Self.answer("[]")) { stub in
            _ = try await Self.load(form, with: stub).get()
            let request = try #require(stub.requests.only)
            #expect(request.httpMethod == "GET")
            #expect(request.url?.host == stub.baseURL.host)
            #expect(request.url?.path == "/locations")
            #expect(request.url?.query == "lat=37.3293&long=-121.8893")
        }
    }

    @Test("A 200 with places is parsed", arguments: Form.allCases)
    func success(form: Form) async throws {
        let body = #"[{"name": "Cathedral Basilica of St. Joseph", "category": "landmark"}]"#
        let places = try await MockURLProtocol.withStub(Self.answer(body)) { stub in
            try await Self.load(form, with: stub).get()
        }
        #expect(places == [PointOfInterest(name: "Cathedral Basilica of St. Joseph", category: .landmark)])
    }

    @Test(
        "A status outside 2xx is its own error, whatever the body",
        arguments: Form.allCases,
        [(400, #"{"error": "lat is missing"}"#), (404, ""), (500, "<html>Internal Server Error</html>"), (503, "{")]
    )
    func httpErrorStatus(form: Form, answer: (status: Int, body: String)) async throws {
        let result = try await MockURLProtocol.withStub(Self.answer(answer.body, status: answer.status)) { stub in
            try await Self.load(form, with: stub)
        }
        let error = result.error as? APIError
        #expect(error?.statusCode == answer.status, "\(String(describing: result))")
        #expect(error?.description.contains("HTTP \(answer.status)") == true)
    }

    @Test(
        "Transport errors reach the caller unchanged",
        arguments: Form.allCases,
        [URLError.Code.notConnectedToInternet, .timedOut, .cannotFindHost, .networkConnectionLost]
    )
    func transportError(form: Form, code: URLError.Code) async throws {
        let failing: MockURLProtocol.RequestHandler = { _ in throw URLError(code) }
        let result = try await MockURLProtocol.withStub(failing) { stub in
            try await Self.load(form, with: stub)
        }
        #expect((result.error as? URLError)?.code == code, "\(String(describing: result))")
    }

    @Test(
        "A 200 whose body is not the list of places is a malformed response",
        arguments: Form.allCases,
        ["<html></html>", #"{"places": []}"#, #"[{"nom": "x"}]"#, ""]
    )
    func malformedBody(form: Form, body: String) async throws {
        let result = try await MockURLProtocol.withStub(Self.answer(body)) { stub in
            try await Self.load(form, with: stub)
        }
        guard case .malformedResponse = result.error as? APIError else {
            Issue.record("expected malformedResponse, got \(String(describing: result))")
            return
        }
    }

    // The stub comes from a scoping trait here: each of the two cases gets one of its own, as with `withStub`.
    @Test("An invalid coordinate fails before anything is sent", .stubbed(answer("[]")), arguments: Form.allCases)
    func invalidCoordinate(form: Form) async throws {
        let stub = try #require(MockURLProtocol.Stub.current)
        let result = try await Self.load(form, with: stub, at: Coordinate(latitude: 0, longitude: 200))
        #expect(result.error is RequestError)
        #expect(stub.requests.isEmpty)
    }

    @Test("Cancelling the async load cancels the request and throws URLError.cancelled")
    func asyncCancellation() async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        try await confirmation("the request is stopped") { stopped in
            try await MockURLProtocol.withStub(
                { _ in
                    arrived.yield()
                    throw MockURLProtocol.Unanswered()
                },
                onCancel: { _ in stopped() }
            ) { stub in
                let load = Task { try await Self.load(.async, with: stub) }
                var iterator = arrivals.makeAsyncIterator()
                try await iterator.boundedNext("the request's arrival at the stub")
                load.cancel()
                let result = try await load.boundedValue("the end of the cancelled load")
                Self.expectCancelled(result.error)
                try #require(stub.cancelledRequests.count == 1)
            }
        }
    }

    @Test("A load whose task was cancelled before it began cancels its request as soon as the request exists")
    func cancelledBeforeStart() async throws {
        // The stub never answers: only the loader's own cancel can end this load (without it, the test hangs
        // until its time limit).
        let unanswered: MockURLProtocol.RequestHandler = { _ in throw MockURLProtocol.Unanswered() }
        try await MockURLProtocol.withStub(unanswered) { stub in
            let load = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await Self.load(.async, with: stub)
            }
            let result = try await load.boundedValue("the end of the load cancelled before it began")
            Self.expectCancelled(result.error)
        }
    }

    @Test("Cancelling the completion handler's task calls it once with URLError.cancelled")
    func completionHandlerCancellation() async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let neverAnswering: MockURLProtocol.RequestHandler = { _ in
            arrived.yield()
            throw MockURLProtocol.Unanswered()
        }
        try await MockURLProtocol.withStub(neverAnswering) { stub in
            let loader = APIRequestLoader(
                apiRequest: PointsOfInterestRequest(baseURL: stub.baseURL),
                urlSession: stub.session
            )
            let error = try await boundedContinuation("the cancelled load's completion handler") { continuation in
                let load = loader.loadAPIRequest(requestData: Self.convention) { places, error in
                    continuation.resume(returning: error)
                }
                Task {
                    var iterator = arrivals.makeAsyncIterator()
                    await iterator.next()
                    load?.cancel()
                }
            }
            Self.expectCancelled(error)
            try #require(stub.cancelledRequests.count == 1)
        }
    }
}

extension Result {
    /// The failure, or `nil` for a success.
    fileprivate var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension Array {
    /// The single element, or `nil` when there are none or several.
    fileprivate var only: Element? {
        count == 1 ? first : nil
    }
}
