public import Foundation
public import POIDomain
import POILock

/// Rotates the featured place, one place every ten seconds: the talk's `FeaturedPlaceManager`.
///
/// The delay goes through an injected `TimerScheduler` (WWDC 2018 session 417, "Test execution speed"), so a test
/// fires the timer at once and still checks the ten-second delay; most tests call `showNextPlace()` directly.
///
/// Swift 6: a `Timer`'s block is `@Sendable`, so the manager is `Sendable` with its state behind a lock. The
/// scheduler is the one exception to the compiler's checking, see `timerScheduler`.
public final class FeaturedPlaceManager: Sendable {
    /// The talk's delay between two featured places.
    public static let rotationInterval: TimeInterval = 10

    /// The places shown in turn; never empty.
    public let places: [PointOfInterest]
    /// The delay `scheduleNextPlace()` asks for.
    public let interval: TimeInterval

    /// The scheduler, used only inside `schedulingLock`.
    ///
    /// `TimerScheduler` is not `Sendable`: the talk's mock is a struct whose closure writes a variable of the test,
    /// and the test reads that variable afterwards. Taking the scheduler as `sending` (as `CurrentLocationProvider`
    /// takes its fetcher) would forbid exactly that read, so the talk's test would not compile. Instead every use
    /// of the scheduler is serialized by `schedulingLock`, which is what makes `nonisolated(unsafe)` sound here.
    /// The lock is recursive because the talk's mock fires the timer inside `add`, and a rotation's timer
    /// schedules the next one.
    private nonisolated(unsafe) let timerScheduler: any TimerScheduler
    private let schedulingLock = NSRecursiveLock()
    private let state: Lock<Rotation>

    /// Creates the manager, showing the first place; the talk's `FeaturedPlaceManager(timerScheduler:)` stays valid.
    ///
    /// `places` must not be empty. `onPlaceChange` hears each new place, outside the manager's locks.
    public init(
        timerScheduler: any TimerScheduler = RunLoop.current,
        places: [PointOfInterest] = PointOfInterest.sanJose,
        interval: TimeInterval = FeaturedPlaceManager.rotationInterval,
        onPlaceChange: (@Sendable (PointOfInterest) -> Void)? = nil
    ) {
        precondition(!places.isEmpty, "FeaturedPlaceManager needs at least one place")
        self.places = places
        self.interval = interval
        self.timerScheduler = timerScheduler
        self.state = Lock(Rotation(onPlaceChange: onPlaceChange), name: "FeaturedPlaceManager.state")
    }

    /// The place featured now.
    public var currentPlace: PointOfInterest {
        places[state.withLock { $0.index }]
    }

    /// Shows the next place after `interval` seconds, through a timer handed to the scheduler.
    public func scheduleNextPlace() {
        schedule { [weak self] in
            self?.showNextPlace()
        }
    }

    /// Shows the next place every `interval` seconds, `count` times (without end when `nil`), each through a
    /// timer handed to the scheduler when the one before has fired; calls `completion` after the last.
    ///
    /// The rotation keeps the manager alive until it ends, so a caller need not hold on to it.
    public func startRotation(count: Int? = nil, completion: (@Sendable () -> Void)? = nil) {
        if let count, count <= 0 {
            completion?()
            return
        }
        schedule {
            self.showNextPlace()
            self.startRotation(count: count.map { $0 - 1 }, completion: completion)
        }
    }

    private func schedule(_ action: @escaping @Sendable () -> Void) {
        // Linux: Timer's `timeInterval:repeats:block:` initializer sets the fire date to now in swift-corelibs-foundation
        // (#4712), so a ten-second timer would fire at once; giving the fire date explicitly works everywhere.
        let fireDate = Date(timeIntervalSinceNow: interval)
        let timer = Timer(fire: fireDate, interval: 0, repeats: false) { _ in
            action()
        }
        schedulingLock.withLock {
            timerScheduler.add(timer, forMode: .default)
        }
    }

    /// Shows the next place now, wrapping around after the last one.
    ///
    /// `onPlaceChange` hears every place in the order they were shown, outside the manager's lock, and the last it
    /// hears is `currentPlace`: a caller that shows a place while another's is being told queues it, and the caller
    /// already telling tells it next (which is also what happens when `onPlaceChange` itself shows the next place).
    /// Telling each caller's place after the lock, as each caller returned, let two threads' places be heard in the
    /// wrong order, the first one last (docs/15-sync-points.md).
    public func showNextPlace() {
        let tells = state.withLock { state in
            state.index = (state.index + 1) % places.count
            guard state.onPlaceChange != nil else { return false }
            state.untold.append(places[state.index])
            guard !state.telling else { return false }
            state.telling = true
            return true
        }
        guard tells else { return }
        while let (place, onPlaceChange) = state.withLock({ state in state.nextToTell() }) {
            onPlaceChange(place)
        }
    }
}

/// Where the rotation is, and the places shown that `onPlaceChange` has not heard yet.
private struct Rotation {
    var index = 0
    let onPlaceChange: (@Sendable (PointOfInterest) -> Void)?
    var untold: [PointOfInterest] = []
    /// Whether a caller is telling `onPlaceChange` the untold places, one after another.
    var telling = false

    init(onPlaceChange: (@Sendable (PointOfInterest) -> Void)?) {
        self.onPlaceChange = onPlaceChange
    }

    /// The next place to tell, with whom to tell it; `nil` when none is left, and the telling ends.
    mutating func nextToTell() -> (PointOfInterest, @Sendable (PointOfInterest) -> Void)? {
        guard let onPlaceChange, !untold.isEmpty else {
            untold = []
            telling = false
            return nil
        }
        return (untold.removeFirst(), onPlaceChange)
    }
}
