import Foundation
import POIApp
import POIDomain
import POILocation
import POITestSupport
import PortableTestSupport
import Testing

/// Isolating a notification observer (WWDC 2018 session 417, "Working with notifications"), in Swift Testing.
///
/// Each test gives the list a `NotificationCenter` of its own, so tests that run in parallel never hear each
/// other's notifications.
@Suite("PointsOfInterestListModel")
struct PointsOfInterestListModelTests {
    static let convention = Coordinate(latitude: 37.3293, longitude: -121.8893)

    // The center comes from a scoping trait: a new one for this test, as `NotificationCenter()` gives the others.
    @Test("A notification on the injected center reloads the list", .isolatedNotificationCenter)
    func reloadsOnInjectedCenter() throws {
        let center = try #require(IsolatedNotificationCenter.current)
        let list = PointsOfInterestListModel(notificationCenter: center)
        let before = list.reloadCount
        #expect(!list.didHandleNotification)

        center.post(name: CurrentLocationProvider.authChangedNotification, object: nil)

        #expect(list.didHandleNotification)
        #expect(list.reloadCount == before + 1)
    }

    @Test("A notification on .default does not reach a list observing another center")
    func defaultCenterDoesNotReachIt() {
        let list = PointsOfInterestListModel(notificationCenter: NotificationCenter())
        NotificationCenter.default.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        #expect(!list.didHandleNotification)
    }

    @Test("Other notifications on the same center are ignored")
    func otherNotificationsIgnored() {
        let center = NotificationCenter()
        let list = PointsOfInterestListModel(notificationCenter: center)
        center.post(name: Notification.Name("SomethingElse"), object: nil)
        #expect(!list.didHandleNotification)
    }

    @Test("The observer block does not keep the list alive")
    func stopsObservingWhenReleased() {
        let center = NotificationCenter()
        weak var released: PointsOfInterestListModel?
        do {
            let list = PointsOfInterestListModel(notificationCenter: center)
            released = list
        }
        #expect(released == nil)
        center.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
    }

    @Test("Rows are the places nearest first, each with its distance")
    func rowsNearestFirst() throws {
        let list = PointsOfInterestListModel(notificationCenter: NotificationCenter(), position: Self.convention)
        let rows = list.rows
        #expect(rows.count == PointOfInterest.sanJose.count)
        #expect(rows.first?.place.name == "San Jose McEnery Convention Center")
        #expect(rows.last?.place.name == "Winchester Mystery House")
        let distances = rows.compactMap(\.distance)
        #expect(distances.count == rows.count)
        #expect(distances == distances.sorted())
        #expect(try #require(distances.first).description == "40 m")
    }

    @Test("Places at the same distance go by name; places equal in both keep their order; reloads are counted")
    func ties() {
        let spot = Coordinate(latitude: 37.33, longitude: -121.89)
        let places = [
            PointOfInterest(name: "Beta", coordinate: spot, category: .park),
            PointOfInterest(name: "Alpha", coordinate: spot),
            PointOfInterest(name: "Beta", coordinate: spot, category: .museum),
        ]
        let list = PointsOfInterestListModel(notificationCenter: NotificationCenter(), places: places, position: spot)
        #expect(list.rows.map(\.place) == [places[1], places[0], places[2]])
        #expect(list.reloadCount == 1)
        list.reload()
        #expect(list.reloadCount == 2)
    }

    @Test("An update replaces the places the list shows, not only the position")
    func updateReplacesPlaces() {
        let list = PointsOfInterestListModel(
            notificationCenter: NotificationCenter(), places: [PointOfInterest(name: "Old")])
        list.update(places: [PointOfInterest(name: "New"), PointOfInterest(name: "Newer")], position: nil)
        #expect(list.rows.map(\.place.name) == ["New", "Newer"])
    }

    @Test("Without a position the rows are in name order, and places without a position come last")
    func rowsWithoutPosition() {
        let places = [
            PointOfInterest(name: "Zeta", coordinate: Coordinate(latitude: 37.33, longitude: -121.89)),
            PointOfInterest(name: "Alpha"),
            PointOfInterest(name: "Beta", coordinate: Coordinate(latitude: 37.34, longitude: -121.89)),
        ]
        let list = PointsOfInterestListModel(notificationCenter: NotificationCenter(), places: places)
        #expect(list.rows.map(\.place.name) == ["Alpha", "Beta", "Zeta"])

        list.update(places: places, position: Coordinate(latitude: 37.3401, longitude: -121.89))
        #expect(list.rows.map(\.place.name) == ["Beta", "Zeta", "Alpha"])
        #expect(list.rows.last?.distance == nil)
    }

    /// A list observing `spy`, made in a scope of its own: the list goes when it returns.
    static func listThatWent(observing spy: SpyNotificationCenter) -> (reloadsBefore: Int, reloadsAfter: Int) {
        let list = PointsOfInterestListModel(notificationCenter: spy)
        let before = list.reloadCount
        spy.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        return (before, list.reloadCount)
    }

    @Test("The list adds one observer, on the center it was given, with no queue, and removes that one when it goes")
    func observerCounted() {
        let spy = SpyNotificationCenter()
        let (before, after) = Self.listThatWent(observing: spy)
        #expect(after == before + 1, "the spy's center delivers as a NotificationCenter does")
        let added = spy.additions
        #expect(added.count == 1, "added once")
        #expect(added.first?.name == CurrentLocationProvider.authChangedNotification)
        #expect(added.first?.hasQueue == false, "queue: nil is promised: the posting thread, before post returns")
        #expect(spy.removals == added.map(\.token), "removed from the center it was added to, when the list went")
        #expect(spy.observerCount == 0)
    }

    @Test("The list's block runs on the posting thread, before post returns, whichever thread posts")
    func blockRunsBeforePostReturns() async throws {
        let center = NotificationCenter()
        let list = PointsOfInterestListModel(notificationCenter: center)
        let reloads = try await boundedContinuation("the posting thread's counts") {
            (done: CheckedContinuation<(Int, Int), Never>) in
            Thread.detachNewThread {
                let before = list.reloadCount
                center.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
                done.resume(returning: (before, list.reloadCount))  // read on the posting thread, after post returned
            }
        }
        #expect(reloads.1 == reloads.0 + 1)
    }

    @Test(
        "Another update, or a notification, anywhere in an update: the rows are the last places', each reload counted")
    func updateInterleaved() throws {
        let first = [PointOfInterest(name: "First")]
        let second = [PointOfInterest(name: "Second"), PointOfInterest(name: "Third")]
        for competing in ["update", "notification"] {
            try Interleavings.each(
                { PointsOfInterestListModel(notificationCenter: NotificationCenter(), places: []) },
                on: ["PointsOfInterestListModel.state"],
                operation: { $0.update(places: first, position: nil) },
                competing: { list in
                    if competing == "update" {
                        list.update(places: second, position: nil)
                    } else {
                        list.notificationCenter.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
                    }
                },
                check: { list, trial in
                    #expect(trial.point == nil || trial.competed, "\(competing) at \(trial): not reached again")
                    // The rows are the places set last (the other update's, which came after), whichever reload ran last.
                    let last = trial.point != nil && competing == "update" ? second : first
                    #expect(list.rows.map(\.place.name) == last.map(\.name), "\(competing) at \(trial)")
                    #expect(list.reloadCount == (trial.point == nil ? 2 : 3), "\(competing) at \(trial)")
                })
        }
    }
}
