public import Foundation
public import POIDomain
import POILock

/// Finds the current position and tells whether it is at a point of interest: the talk's `CurrentLocationProvider`.
///
/// WWDC 2018 session 417 uses this class twice. "Working with notifications": it posts `authChangedNotification`
/// to the `NotificationCenter` it was given, never to `.default` behind the caller's back. "Mocking with
/// protocols": it talks to a `LocationFetcher` and is its `LocationFetcherDelegate`, so tests hand it a mock.
///
/// Swift 6: the class is `Sendable`, with its mutable state behind locks, because fetchers call it back from their
/// own threads; `@MainActor` would have kept the talk's synchronous, non-isolated XCTest call sites from compiling.
/// The fetcher is a non-`Sendable` protocol (the talk's mock is a struct holding a plain closure), so the provider
/// takes it as `sending` and keeps it behind a lock of its own.
public final class CurrentLocationProvider: NSObject, LocationFetcherDelegate, Sendable {
    /// Posted when the app's location authorization changes; the object is the provider.
    public static let authChangedNotification = Notification.Name("AuthChanged")

    /// How close to a place counts as being at it, unless the initializer is given another radius.
    public static let defaultRadius = Distance(meters: 100)

    /// The accuracy the provider asks of its fetcher: CoreLocation's `kCLLocationAccuracyHundredMeters`.
    public static let desiredAccuracy: LocationAccuracy = 100

    /// Where `notifyAuthChanged()` posts.
    public let notificationCenter: NotificationCenter
    /// The places the position is compared with.
    public let pointsOfInterest: [PointOfInterest]
    /// How close to a place counts as being at it.
    public let radius: Distance

    private let fetcher: Lock<any LocationFetcher>
    private let checks = Lock(Checks(), name: "CurrentLocationProvider.checks")

    /// Creates a provider; the talk's `CurrentLocationProvider(locationFetcher:)` and `(notificationCenter:)` stay valid.
    ///
    /// The fetcher defaults to `CLLocationManager` on Apple platforms and to gpsd on the local machine elsewhere.
    public init(
        locationFetcher: sending any LocationFetcher = CurrentLocationProvider.makeDefaultFetcher(),
        notificationCenter: NotificationCenter = .default,
        pointsOfInterest: [PointOfInterest] = PointOfInterest.sanJose,
        radius: Distance = CurrentLocationProvider.defaultRadius
    ) {
        self.fetcher = Lock(locationFetcher, name: "CurrentLocationProvider.fetcher")
        self.notificationCenter = notificationCenter
        self.pointsOfInterest = pointsOfInterest
        self.radius = radius
        super.init()
        fetcher.withLock { fetcher in
            fetcher.desiredAccuracy = Self.desiredAccuracy
            fetcher.locationFetcherDelegate = self
        }
    }

    /// The accuracy the fetcher was asked for.
    public var fetcherDesiredAccuracy: LocationAccuracy {
        fetcher.withLock { $0.desiredAccuracy }
    }

    /// Whether the fetcher's delegate is this provider.
    public var isFetcherDelegate: Bool {
        fetcher.withLock { $0.locationFetcherDelegate === self }
    }

    // MARK: Notifications

    /// Tells the app that location authorization changed, on the injected notification center.
    public func notifyAuthChanged() {
        notificationCenter.post(name: Self.authChangedNotification, object: self)
    }

    // MARK: Locating

    /// Calls `completion` with whether the current position is within `radius` of a point of interest.
    ///
    /// The talk's method. When the position cannot be found the answer is `false`; `locatePointOfInterest` says why.
    public func checkCurrentLocation(completion: @escaping @Sendable (Bool) -> Void) {
        locatePointOfInterest { result in
            completion((try? result.get()) != nil)
        }
    }

    /// Calls `completion` with the nearest point of interest within `radius` of the current position (`nil` when
    /// there is none), or with the error that kept the fetcher from finding the position.
    public func locatePointOfInterest(completion: @escaping @Sendable (Result<PointOfInterest?, any Error>) -> Void) {
        locateCurrentPosition { result in
            completion(result.map { self.pointOfInterest(at: $0) })
        }
    }

    /// The nearest place within `radius` of `position`, if any.
    public func pointOfInterest(at position: Coordinate) -> PointOfInterest? {
        guard let nearest = pointsOfInterest.nearestFirst(from: position).first, let distance = nearest.distance,
            distance <= radius
        else { return nil }
        return nearest.place
    }

    /// Asks the fetcher for the position once; callers that ask while a request is out share its answer.
    public func locateCurrentPosition(completion: @escaping @Sendable (Result<Coordinate, any Error>) -> Void) {
        let isFirst = checks.withLock { checks in
            checks.waiting.append(completion)
            if checks.waiting.count == 1 {
                checks.requesting = true
                return true
            }
            return false
        }
        guard isFirst else { return }
        fetcher.withLock { $0.requestLocation() }
        // A fetcher may answer from inside `requestLocation()` (a mock does); that answer was kept until here, so
        // completions never run while the fetcher's lock is held and may ask again.
        let early = checks.withLock { checks in
            checks.requesting = false
            defer { checks.early = nil }
            return checks.early
        }
        if let early {
            deliver(early)
        }
    }

    // MARK: LocationFetcherDelegate

    /// Answers the waiting checks with the most recent position (CoreLocation lists them oldest first).
    public func locationFetcher(_ fetcher: any LocationFetcher, didUpdateLocations locations: [Coordinate]) {
        guard let location = locations.last else { return }
        receive(.success(location))
    }

    /// Answers the waiting checks with the fetcher's error.
    public func locationFetcher(_ fetcher: any LocationFetcher, didFailWithError error: any Error) {
        receive(.failure(error))
    }

    private func receive(_ result: Result<Coordinate, any Error>) {
        let deliverNow = checks.withLock { checks in
            guard checks.requesting else { return true }
            checks.early = result
            return false
        }
        if deliverNow {
            deliver(result)
        }
    }

    private func deliver(_ result: Result<Coordinate, any Error>) {
        let waiting = checks.withLock { checks in
            defer { checks.waiting = [] }
            return checks.waiting
        }
        for completion in waiting {
            completion(result)
        }
    }
}

/// The checks waiting for a position.
private struct Checks {
    var waiting: [@Sendable (Result<Coordinate, any Error>) -> Void] = []
    /// Whether `requestLocation()` is running on the asking thread.
    var requesting = false
    /// An answer that came while `requestLocation()` was running.
    var early: Result<Coordinate, any Error>?
}
