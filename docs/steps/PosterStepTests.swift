import Foundation
import POILocation
import XCTest

/// Chapter 6's steps (scripts/tool steps 6): the talk's expectation for a posted notification, and what fulfils it.
final class PosterStepTests: XCTestCase {
    /// Steps 1 and 2, the talk's tests on `.default`: an observer block, then `XCTNSNotificationExpectation`.
    func testOnDefaultAnObserverBlockSeesThePost() {
        let poster = CurrentLocationProvider()
        let expectation = expectation(description: "the notification")
        let token = NotificationCenter.default.addObserver(
            forName: CurrentLocationProvider.authChangedNotification, object: nil, queue: nil
        ) { _ in expectation.fulfill() }
        defer { NotificationCenter.default.removeObserver(token) }
        poster.notifyAuthChanged()
        wait(for: [expectation], timeout: 0)
    }

    func testOnDefaultTheExpectationSeesThePost() {
        let poster = CurrentLocationProvider()
        let expectation = XCTNSNotificationExpectation(name: CurrentLocationProvider.authChangedNotification)
        poster.notifyAuthChanged()
        wait(for: [expectation], timeout: 0)
    }

    /// What the chapter says of `.default`: another provider's post fulfils the expectation, so a subject that
    /// never posts passes.
    func testOnDefaultAnotherPosterFulfilsTheExpectation() {
        _ = CurrentLocationProvider()  // the subject: it never posts here
        let someoneElse = CurrentLocationProvider()
        let expectation = XCTNSNotificationExpectation(name: CurrentLocationProvider.authChangedNotification)
        someoneElse.notifyAuthChanged()
        wait(for: [expectation], timeout: 0)
    }

    /// Step 3, the talk's test with the center injected.
    func testTheProviderPosts() {
        let notificationCenter = NotificationCenter()
        let poster = CurrentLocationProvider(notificationCenter: notificationCenter)
        let expectation = XCTNSNotificationExpectation(
            name: CurrentLocationProvider.authChangedNotification, object: poster,
            notificationCenter: notificationCenter)
        poster.notifyAuthChanged()
        wait(for: [expectation], timeout: 0)
    }

    /// What the chapter says of step 3: another provider's post no longer reaches the test; this check now fails.
    func testAnotherPosterFulfilsTheExpectation() {
        let notificationCenter = NotificationCenter()
        _ = CurrentLocationProvider(notificationCenter: notificationCenter)  // the subject: it never posts here
        let someoneElse = CurrentLocationProvider(notificationCenter: NotificationCenter())
        let expectation = XCTNSNotificationExpectation(
            name: CurrentLocationProvider.authChangedNotification, object: nil, notificationCenter: notificationCenter)
        someoneElse.notifyAuthChanged()
        wait(for: [expectation], timeout: 0)
    }
}
