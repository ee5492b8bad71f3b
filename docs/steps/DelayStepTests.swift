import Foundation
import POIApp
import POIDomain
import XCTest

/// Chapter 9's steps (scripts/tool steps 9): the talk's three ways to test the ten-second rotation, and their cost.
final class DelayStepTests: XCTestCase {
    let places = ["A", "B", "C"].map { PointOfInterest(name: $0) }

    /// Step 1: wait on the real run loop for longer than the delay.
    func testWaitingElevenSeconds() {
        let manager = FeaturedPlaceManager(places: places)
        manager.scheduleNextPlace()
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 11))
        XCTAssertEqual(manager.currentPlace.name, "B")
    }

    /// Step 2: a property for the delay, one second in the test, still waited for.
    func testWaitingOneSecond() {
        let manager = FeaturedPlaceManager(places: places, interval: 1)
        manager.scheduleNextPlace()
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 1.1))
        XCTAssertEqual(manager.currentPlace.name, "B")
    }
}
