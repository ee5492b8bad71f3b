import XCTest

extension MockURLProtocol {
    /// Clears the talk's shared handler after each XCTest test, so that a handler never answers the next test.
    final class SlotReset: XCTestObservation, Sendable {
        private static let state = Lock((installed: false, xcTestRunning: false))

        /// Whether an XCTest test that set the shared handler is running.
        static var isXCTestRunning: Bool {
            state.withLock { $0.xcTestRunning }
        }

        /// Registers the observer once; called when a test sets the shared handler, so that test is running.
        static func install() {
            let needsObserver = state.withLock { state in
                defer { state = (installed: true, xcTestRunning: true) }
                return !state.installed
            }
            if needsObserver {
                XCTestObservationCenter.shared.addTestObserver(SlotReset())
            }
        }

        func testCaseWillStart(_ testCase: XCTestCase) {
            Self.state.withLock { $0.xcTestRunning = true }
        }

        func testCaseDidFinish(_ testCase: XCTestCase) {
            Self.state.withLock { $0.xcTestRunning = false }
            MockURLProtocol.registry.withLock { registry in
                registry.sharedHandler = nil
                registry.sharedCancellationHandler = nil
            }
        }
    }
}
