public import Foundation
public import POIDomain
import POILocation
import POILock

/// The list of places near a position, nearest first: what the talk's `PointsOfInterestTableViewController` shows.
///
/// WWDC 2018 session 417, "Working with notifications": the list reloads when
/// `CurrentLocationProvider.authChangedNotification` is posted, and it observes the `NotificationCenter` it was
/// given (default `.default`), so a test posts to a center of its own and nothing else in the process hears it.
///
/// Swift 6: notification blocks are `@Sendable` and may run on any posting thread, so the model is `Sendable` and
/// keeps its state behind a lock.
public final class PointsOfInterestListModel: Sendable {
    /// One line of the list: a place and how far it is from the position, when both are known.
    public typealias Row = NearbyPlace

    /// The center whose `authChangedNotification` reloads the list: a `NotificationCenter`, or a test's spy.
    public let notificationCenter: any NotificationChannel

    private let state: Lock<State>
    private let observation = Lock<(any NSObjectProtocol)?>(nil, name: "PointsOfInterestListModel.observation")

    /// Creates the list and starts observing; the talk's `init(notificationCenter:)` stays valid (a `NotificationCenter`
    /// is a `NotificationChannel`).
    public init(
        notificationCenter: any NotificationChannel = NotificationCenter.default,
        places: [PointOfInterest] = PointOfInterest.sanJose,
        position: Coordinate? = nil
    ) {
        self.notificationCenter = notificationCenter
        self.state = Lock(State(places: places, position: position), name: "PointsOfInterestListModel.state")
        reload()
        startObserving()
    }

    private func startObserving() {
        let center = notificationCenter
        observation.withLock { token in
            token = Self.observeAuthChanged(on: center) { [weak self] in
                self?.handleAuthChanged()
            }
        }
    }

    /// Adds the observer; the token comes back as `sending` so that it can be kept behind the lock.
    private static func observeAuthChanged(
        on center: any NotificationChannel,
        handler: @escaping @Sendable () -> Void
    ) -> sending any NSObjectProtocol {
        // No queue: the block runs on the posting thread before `post` returns, as the talk's test expects.
        center.observe(CurrentLocationProvider.authChangedNotification, queue: nil) { _ in
            handler()
        }
    }

    deinit {
        if let token = observation.withLock({ $0 }) {
            notificationCenter.stopObserving(token)
        }
    }

    /// The places, nearest first (`nearestFirst(from:)` says how ties and places without a position go).
    public var rows: [Row] {
        state.withLock { $0.rows }
    }

    /// Whether an `authChangedNotification` reached the list: the talk's test hook.
    public var didHandleNotification: Bool {
        state.withLock { $0.didHandleNotification }
    }

    /// How many times the rows were computed, the first time included.
    public var reloadCount: Int {
        state.withLock { $0.reloadCount }
    }

    /// Replaces the places and the position, and reloads.
    public func update(places: [PointOfInterest], position: Coordinate?) {
        state.withLock { state in
            state.places = places
            state.position = position
        }
        reload()
    }

    /// Computes the rows again from the places and the position.
    public func reload() {
        state.withLock { state in
            state.rows = state.places.nearestFirst(from: state.position)
            state.reloadCount += 1
        }
    }

    /// Called for each `authChangedNotification`: authorization decides whether a position is known, so reload.
    func handleAuthChanged() {
        state.withLock { $0.didHandleNotification = true }
        reload()
    }
}

/// What the list holds.
private struct State {
    var places: [PointOfInterest]
    var position: Coordinate?
    var rows: [PointsOfInterestListModel.Row] = []
    var didHandleNotification = false
    var reloadCount = 0
}
