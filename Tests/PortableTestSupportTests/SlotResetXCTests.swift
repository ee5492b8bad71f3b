import Foundation
import POILock
import XCTest

@testable import PortableTestSupport

/// The observer that clears `MockURLProtocol`'s shared handler after each XCTest test.
///
/// An `NSObject` (Darwin's `XCTestObservation` refines `NSObjectProtocol`), registered once and on the main thread (Darwin's observation center
/// takes observers there only), whichever thread sets the handler first. An `async` XCTest method runs off the main
/// thread while XCTest's main thread runs its run loop, which is what lets the registration wait for the main thread.
final class SlotResetXCTests: XCTestCase {
    func testRegisteredOnceOnTheMainThreadFromAnotherThread() async throws {
        let registered = Lock<[Bool]>([])
        let reset = MockURLProtocol.SlotReset { _ in registered.withLock { $0.append(Thread.isMainThread) } }
        try await boundedContinuation("the installing thread's end") { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                reset.install()
                reset.install()
                done.resume()
            }
        }
        XCTAssertEqual(registered.withLock { $0 }, [true], "registered once, on the main thread")
        XCTAssertTrue(reset.isXCTestRunning)
    }

    func testEachTestsEndClearsBothSharedHandlers() {
        // What the observer does when a test finishes, called here on an observer of the test's own: the shared
        // handler and the shared cancellation handler both cleared, as their docs say.
        MockURLProtocol.requestHandler = { _ in throw MockURLProtocol.Unanswered() }
        MockURLProtocol.cancellationHandler = { _ in }
        MockURLProtocol.SlotReset { _ in }.testCaseDidFinish(self)
        XCTAssertNil(MockURLProtocol.requestHandler, "the request handler outlived its test")
        XCTAssertNil(MockURLProtocol.cancellationHandler, "the cancellation handler outlived its test")
    }

    func testTheObserverIsAnNSObject() {
        // Darwin's XCTestObservation refines NSObjectProtocol: an observer that is no NSObject does not build there.
        let observer: AnyObject = MockURLProtocol.SlotReset { _ in }
        XCTAssertTrue(observer is NSObject)
    }
}
