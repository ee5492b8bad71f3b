import Dispatch
import Foundation
import Synchronization
import XCTest

/// Measures the talk's advice on expectations (WWDC 2018 session 417, "Test execution speed"): a predicate
/// expectation is polled, a direct one is fulfilled by the event itself.
///
/// On demand, not part of any tier: `POI_COMPARE_EXPECTATIONS=1 swift test --filter ComparisonTests`. Both
/// expectations wait for the same event: a block on the main queue, which runs as soon as `wait` spins the main
/// run loop, so the event always comes after the wait began and nothing sleeps. The test prints the medians and
/// checks that the direct expectation is the faster one.
final class ExpectationSpeedComparison: XCTestCase {
    private final class Flag: Sendable {
        private let value = Mutex(false)

        var isSet: Bool {
            value.withLock { $0 }
        }

        func set() {
            value.withLock { $0 = true }
        }
    }

    private static let rounds = 20

    override func setUpWithError() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["POI_COMPARE_EXPECTATIONS"] == "1",
            "on demand only: POI_COMPARE_EXPECTATIONS=1 swift test --filter ComparisonTests"
        )
    }

    func testDirectExpectationIsFasterThanPredicateExpectation() {
        var direct: [Duration] = []
        var polled: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<Self.rounds {
            let event = XCTestExpectation(description: "the event, fulfilled directly")
            direct.append(
                clock.measure {
                    DispatchQueue.main.async { event.fulfill() }
                    wait(for: [event], timeout: 5)
                }
            )

            let flag = Flag()
            let predicate = NSPredicate { _, _ in flag.isSet }
            let polling = XCTNSPredicateExpectation(predicate: predicate, object: nil)
            polled.append(
                clock.measure {
                    DispatchQueue.main.async { flag.set() }
                    wait(for: [polling], timeout: 5)
                }
            )
        }
        let directMedian = Self.median(direct)
        let polledMedian = Self.median(polled)
        print(
            """
            expectation comparison over \(Self.rounds) rounds: direct XCTestExpectation median \
            \(Self.milliseconds(directMedian)) ms, XCTNSPredicateExpectation median \(Self.milliseconds(polledMedian)) ms
            """
        )
        XCTAssertLessThan(directMedian, polledMedian)
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.2f", duration / .milliseconds(1))
    }
}
