import Dispatch
import Foundation
import PortableTestSupport
import XCTest

/// `WaitTimedOut` from `boundedBlockingCall` for a synchronous test, called from an XCTest method as its users call it: the work's value or error
/// from a thread of its own, and at the bound `WaitTimedOut` naming the wait while the work's thread stays blocked.
final class WaitTimedOutXCTests: XCTestCase {
    struct Refused: Error, Equatable {}

    func testTheWorksValueFromAThreadOfItsOwn() throws {
        let (value, onTheTestsThread) = try boundedBlockingCall("the sum") { (2 + 3, Thread.isMainThread) }
        XCTAssertEqual(value, 5)
        XCTAssertTrue(Thread.isMainThread, "XCTest runs its methods on the main thread")
        XCTAssertFalse(onTheTestsThread, "the work ran on the test's own thread")
    }

    func testTheWorksErrorPassedOnAsItIs() {
        XCTAssertThrowsError(try boundedBlockingCall("the refusal") { () throws -> Int in throw Refused() }) {
            XCTAssertEqual($0 as? Refused, Refused())
        }
    }

    func testWorkBlockedPastTheBoundThrowsNamingItAndItsThreadEndsOnceReleased() throws {
        let gate = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let started = ContinuousClock.now
        XCTAssertThrowsError(
            try boundedBlockingCall("the accept", within: .milliseconds(20)) {
                gate.wait()  // bounded: the test's own gate, opened below
                ended.signal()
            }
        ) {
            XCTAssertEqual($0 as? WaitTimedOut, WaitTimedOut(limit: .milliseconds(20), what: "the accept"))
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "it waited for the bound, not for the work")
        gate.signal()
        try ended.waitBounded("the released work's end")
    }
}
