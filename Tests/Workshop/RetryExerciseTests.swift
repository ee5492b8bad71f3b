import Foundation
import POIDomain
import POINetworking
import PortableTestSupport
import Synchronization
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Exercise `retry` (chapter 3, the URLProtocol stub): when the server answers 503 Service Unavailable, the loader
/// tries once more before it gives up, and the load it returned still cancels whichever request is out.
///
/// XCTest, the talk's way: `MockURLProtocol.requestHandler` plays a server that is busy for the first answers, and
/// every wait has a timeout, so a retry that never starts, is never resumed or cannot be cancelled fails in
/// seconds instead of hanging.
final class RetryExerciseTests: XCTestCase {
    private let convention = Coordinate(latitude: 37.3293, longitude: -121.8893)
    private var loader: APIRequestLoader<PointsOfInterestRequest>!
    private let requests = RequestCount()

    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipUnless(WorkshopSwitch.isOn("retry"), "\(WorkshopSwitch.reason("retry"))")
        loader = APIRequestLoader(apiRequest: PointsOfInterestRequest(), urlSession: MockURLProtocol.makeSession())
    }

    override func tearDown() {
        loader?.urlSession.invalidateAndCancel()
        super.tearDown()
    }

    /// Makes the server answer 503 to the first `busyAnswers` requests, then the list; `after` runs in place of
    /// the list when given (to hold the request open).
    private func serveBusy(_ busyAnswers: Int, after: (@Sendable () throws -> Void)? = nil) {
        let requests = self.requests
        MockURLProtocol.requestHandler = { request in
            let number = requests.next()
            let busy = number <= busyAnswers
            if !busy, let after {
                try after()
            }
            let response = HTTPURLResponse(
                url: request.url!, statusCode: busy ? 503 : 200, httpVersion: nil, headerFields: nil)!
            return (response, Data((busy ? "busy" : #"[{"name": "SAP Center"}]"#).utf8))
        }
    }

    /// Loads with the completion handler; fails the test when the handler is not called within five seconds.
    private func load() -> (places: [PointOfInterest]?, error: (any Error)?) {
        let completion = expectation(description: "completion handler called (is every task resumed?)")
        let outcome = Mutex<(places: [PointOfInterest]?, error: (any Error)?)>((nil, nil))
        loader.loadAPIRequest(requestData: convention) { places, error in
            outcome.withLock { $0 = (places, error) }
            completion.fulfill()
        }
        wait(for: [completion], timeout: 5)
        return outcome.withLock { $0 }
    }

    func testOne503ThenTheList() {
        serveBusy(1)
        let (places, error) = load()
        XCTAssertNil(error)
        XCTAssertEqual(places, [PointOfInterest(name: "SAP Center")])
        XCTAssertEqual(requests.value, 2, "one 503, then one more request")
    }

    func testTwo503sFailWithTheStatusAfterTwoRequests() {
        serveBusy(2)
        let (places, error) = load()
        XCTAssertNil(places)
        XCTAssertEqual((error as? APIError)?.statusCode, 503, "\(String(describing: error))")
        XCTAssertEqual(requests.value, 2, "one retry, not more")
    }

    /// The load the loader returned must cancel the retry too: a caller holding it cannot see a second task.
    func testCancellingTheLoadCancelsTheRetry() {
        let retried = expectation(description: "the retry reached the server")
        let stopped = expectation(description: "the retry was cancelled")
        serveBusy(1) {
            retried.fulfill()
            throw MockURLProtocol.Unanswered()
        }
        MockURLProtocol.cancellationHandler = { _ in stopped.fulfill() }
        let completion = expectation(description: "completion handler called with URLError.cancelled")
        let outcome = Mutex<(any Error)?>(nil)
        let load = loader.loadAPIRequest(requestData: convention) { _, error in
            outcome.withLock { $0 = error }
            completion.fulfill()
            // Without a retry the load ends with the 503: stop waiting for one.
            if (error as? APIError)?.statusCode == 503 {
                retried.fulfill()
            }
        }
        wait(for: [retried], timeout: 5)
        if let error = outcome.withLock({ $0 }) {
            return XCTFail("the load ended with the 503, without a retry: \(error)")
        }
        load?.cancel()
        wait(for: [completion, stopped], timeout: 5)
        let error = outcome.withLock { $0 }
        XCTAssertEqual((error as? URLError)?.code, .cancelled, "\(String(describing: error))")
    }
}

/// How many requests the server has seen, counted from `URLSession`'s queue.
private final class RequestCount: Sendable {
    private let count = Mutex(0)

    var value: Int {
        count.withLock { $0 }
    }

    /// Counts one more request and returns its number, from 1.
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
