import Foundation
import POIApp
import POIDomain
import XCTest

/// The XCTest twin of `FeaturedPlaceManagerRotationTests`: most tests call `showNextPlace()` directly, as the talk
/// advises; the talk's own timer test is in `Talk/FeaturedPlaceManagerTests.swift`.
final class FeaturedPlaceManagerXCTests: XCTestCase {
    struct NeverFiringScheduler: TimerScheduler {
        func add(_ timer: Timer, forMode mode: RunLoop.Mode) {}
    }

    private let places = ["A", "B", "C"].map { PointOfInterest(name: $0) }

    func testShowNextPlaceAdvancesAndWraps() {
        let manager = FeaturedPlaceManager(timerScheduler: NeverFiringScheduler(), places: places)
        XCTAssertEqual(manager.currentPlace.name, "A")
        manager.showNextPlace()
        XCTAssertEqual(manager.currentPlace.name, "B")
        manager.showNextPlace()
        manager.showNextPlace()
        XCTAssertEqual(manager.currentPlace.name, "A")
    }

    func testScheduleNextPlaceWaitsForTheTimer() {
        let manager = FeaturedPlaceManager(timerScheduler: NeverFiringScheduler(), places: places)
        manager.scheduleNextPlace()
        XCTAssertEqual(manager.currentPlace.name, "A", "nothing changes before the timer fires")
    }
}
