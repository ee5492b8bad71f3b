import Foundation
import POIDomain
import POILock
import POINetworking
import PortableTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loader over a `URLSession` whose transport is `MockURLProtocol`, in XCTest as the talk writes it: the
/// shared `MockURLProtocol.requestHandler`, expectations for the completion handler, `await` for the async form.
final class APIRequestLoaderXCTests: XCTestCase {
    private let convention = Coordinate(latitude: 37.3293, longitude: -121.8893)
    private var loader: APIRequestLoader<PointsOfInterestRequest>!

    override func setUp() {
        super.setUp()
        // The shared slot is cleared after every XCTest test: each test starts without a handler.
        XCTAssertNil(MockURLProtocol.requestHandler, "a handler leaked from an earlier test")
        loader = APIRequestLoader(apiRequest: PointsOfInterestRequest(), urlSession: MockURLProtocol.makeSession())
    }

    override func tearDown() {
        loader.urlSession.invalidateAndCancel()
        super.tearDown()
    }

    private static func ok(_ request: URLRequest, _ body: String, status: Int = 200) -> (HTTPURLResponse, Data) {
        let response = HTTPURLResponse(
            url: request.url!,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"]
        )!
        return (response, Data(body.utf8))
    }

    /// Loads with the completion handler and returns what it was called with.
    private func load() -> (places: [PointOfInterest]?, error: (any Error)?) {
        let completion = expectation(description: "completion handler called")
        let outcome = Outcome()
        let load = loader.loadAPIRequest(requestData: convention) { places, error in
            outcome.set(places, error)
            completion.fulfill()
        }
        // A loader that forgot `resume()` leaves its task suspended: caught here at once, with no waiting.
        guard load?.currentTask?.state != .suspended else {
            XCTFail("the loader did not resume its data task")
            return outcome.value
        }
        wait(for: [completion], timeout: 5)
        return outcome.value
    }

    func testOutgoingRequest() throws {
        MockURLProtocol.requestHandler = { request in
            XCTAssertEqual(request.httpMethod, "GET")
            XCTAssertEqual(request.url?.absoluteString, "https://example.com/locations?lat=37.3293&long=-121.8893")
            XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json")
            return Self.ok(request, "[]")
        }
        let (places, error) = load()
        XCTAssertNil(error)
        XCTAssertEqual(places, [])
    }

    func testSuccess() {
        MockURLProtocol.requestHandler = { request in
            Self.ok(request, #"[{"name": "SAP Center", "coordinate": {"latitude": 37.3328, "longitude": -121.9012}}]"#)
        }
        let (places, error) = load()
        XCTAssertNil(error)
        XCTAssertEqual(
            places,
            [PointOfInterest(name: "SAP Center", coordinate: Coordinate(latitude: 37.3328, longitude: -121.9012))]
        )
    }

    func testHTTPErrorStatusIsNotAJSONError() {
        MockURLProtocol.requestHandler = { request in
            Self.ok(request, "<html><h1>Internal Server Error</h1></html>", status: 500)
        }
        let (places, error) = load()
        XCTAssertNil(places)
        XCTAssertEqual((error as? APIError)?.statusCode, 500, "\(String(describing: error))")
        XCTAssertEqual(
            (error as? APIError)?.description,
            "the server answered HTTP 500 (Internal Server Error): <html><h1>Internal Server Error</h1></html>"
        )
    }

    func testTransportErrorPassesThrough() {
        MockURLProtocol.requestHandler = { _ in throw URLError(.notConnectedToInternet) }
        let (places, error) = load()
        XCTAssertNil(places)
        XCTAssertEqual((error as? URLError)?.code, .notConnectedToInternet, "\(String(describing: error))")
    }

    func testMalformedBody() {
        MockURLProtocol.requestHandler = { request in Self.ok(request, #"{"error": "not a list"}"#) }
        let (places, error) = load()
        XCTAssertNil(places)
        guard case .malformedResponse(let reason) = error as? APIError else {
            return XCTFail("expected malformedResponse, got \(String(describing: error))")
        }
        XCTAssertTrue(reason.hasPrefix("expected an array"), reason)
    }

    func testInvalidCoordinateSendsNothing() {
        MockURLProtocol.requestHandler = { request in
            XCTFail("no request may be sent for an invalid coordinate")
            return Self.ok(request, "[]")
        }
        let completion = expectation(description: "completion handler called")
        let load = loader.loadAPIRequest(requestData: Coordinate(latitude: 91, longitude: 0)) { places, error in
            XCTAssertNil(places)
            XCTAssertTrue(error is RequestError, "\(String(describing: error))")
            completion.fulfill()
        }
        XCTAssertNil(load)
        wait(for: [completion], timeout: 0)
    }

    /// Makes the server hold every request open; returns expectations for its arrival and for its cancellation.
    private func holdRequests() -> (arrived: XCTestExpectation, stopped: XCTestExpectation) {
        let arrived = expectation(description: "request reached the server")
        let stopped = expectation(description: "loading system stopped the request")
        MockURLProtocol.requestHandler = { _ in
            arrived.fulfill()
            throw MockURLProtocol.Unanswered()
        }
        MockURLProtocol.cancellationHandler = { _ in stopped.fulfill() }
        return (arrived, stopped)
    }

    func testCancellation() {
        let (arrived, stopped) = holdRequests()

        let completion = expectation(description: "completion handler called")
        let load = loader.loadAPIRequest(requestData: convention) { places, error in
            XCTAssertNil(places)
            XCTAssertEqual((error as? URLError)?.code, .cancelled, "\(String(describing: error))")
            completion.fulfill()
        }
        wait(for: [arrived], timeout: 5)
        load?.cancel()
        wait(for: [completion, stopped], timeout: 5)
    }

    func testAsyncSuccess() async throws {
        MockURLProtocol.requestHandler = { request in Self.ok(request, #"[{"name": "Children's Discovery Museum"}]"#) }
        let places = try await loader.loadAPIRequest(requestData: convention)
        XCTAssertEqual(places, [PointOfInterest(name: "Children's Discovery Museum")])
    }

    func testAsyncHTTPErrorStatus() async {
        MockURLProtocol.requestHandler = { request in Self.ok(request, #"{"error": "no such place"}"#, status: 404) }
        do {
            _ = try await loader.loadAPIRequest(requestData: convention)
            XCTFail("a 404 must throw")
        } catch {
            XCTAssertEqual((error as? APIError)?.statusCode, 404, "\(error)")
        }
    }

    func testAsyncCancellation() async {
        let (arrived, stopped) = holdRequests()
        let loader = self.loader!
        let convention = self.convention
        let load = Task { try await loader.loadAPIRequest(requestData: convention) }
        await fulfillment(of: [arrived], timeout: 5)
        load.cancel()
        do {
            _ = try await load.boundedValue("the end of the cancelled load")
            XCTFail("a cancelled load must throw")
        } catch {
            XCTAssertEqual((error as? URLError)?.code, .cancelled, "\(error)")
        }
        await fulfillment(of: [stopped], timeout: 5)
    }
}

/// What a completion handler was called with, handed back to the test thread.
private final class Outcome: Sendable {
    private let storage = Lock<(places: [PointOfInterest]?, error: (any Error)?)>((nil, nil))

    var value: (places: [PointOfInterest]?, error: (any Error)?) {
        storage.withLock { $0 }
    }

    func set(_ places: [PointOfInterest]?, _ error: (any Error)?) {
        storage.withLock { $0 = (places, error) }
    }
}
