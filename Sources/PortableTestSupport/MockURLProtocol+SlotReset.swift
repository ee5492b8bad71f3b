import Foundation
import POILock
import XCTest

extension MockURLProtocol {
    /// Clears the talk's shared handler after each XCTest test, so that a handler never answers the next test.
    ///
    /// An `NSObject`: on Darwin `XCTestObservation` refines `NSObjectProtocol`, so only an `NSObject` subclass can
    /// observe (Foundation on Linux has `NSObject` too). It is registered on the main thread, the only one Darwin's
    /// `XCTestObservationCenter` accepts observers from ("Test observers can only be registered and unregistered on
    /// the main thread"), whichever thread sets the handler first: an `async` XCTest method runs off the main thread.
    ///
    /// Its conformance to `XCTestObservation` is in an extension, and its two methods are `nonisolated`, so that it
    /// compiles the same whether or not an SDK isolates the protocol to the main actor: a conformance on the class's
    /// own declaration would then isolate the whole class, `shared` and `install()` with it.
    final class SlotReset: NSObject, Sendable {
        /// The process's one, registered with XCTest's observation center when a test first sets the shared handler.
        static let shared = SlotReset { XCTestObservationCenter.shared.addTestObserver($0) }

        private let state = Lock((installed: false, xcTestRunning: false))
        private let register: @Sendable (SlotReset) -> Void

        /// An observer that `register` registers (on the main thread) when `install()` is first called; the tests
        /// give one that records where it was called.
        init(register: @escaping @Sendable (SlotReset) -> Void) {
            self.register = register
        }

        /// Whether an XCTest test that set the shared handler is running.
        var isXCTestRunning: Bool {
            state.withLock { $0.xcTestRunning }
        }

        /// Registers the observer once, on the main thread; called when a test sets the shared handler, so that test
        /// is running.
        ///
        /// Off the main thread it waits for the main thread to register it: XCTest's main thread runs its run loop,
        /// which serves the main queue, while an `async` test method runs.
        func install() {
            let needsObserver = state.withLock { state in
                defer { state = (installed: true, xcTestRunning: true) }
                return !state.installed
            }
            guard needsObserver else { return }
            if Thread.isMainThread {
                register(self)
            } else {
                DispatchQueue.main.sync { register(self) }
            }
        }
    }
}

extension MockURLProtocol.SlotReset: XCTestObservation {
    nonisolated func testCaseWillStart(_ testCase: XCTestCase) {
        state.withLock { $0.xcTestRunning = true }
    }

    nonisolated func testCaseDidFinish(_ testCase: XCTestCase) {
        state.withLock { $0.xcTestRunning = false }
        MockURLProtocol.registry.withLock { registry in
            registry.sharedHandler = nil
            registry.sharedCancellationHandler = nil
        }
    }
}
