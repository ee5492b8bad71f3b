import Foundation
import POIDomain
import Synchronization

/// `poi featured`: the featured place, rotated by `FeaturedPlaceManager` on the real run loop.
struct FeaturedCommand {
    let arguments: [String]

    @MainActor
    func run(output: @escaping @Sendable (String) -> Void) async throws(CommandLineError) {
        let parsed = try ParsedArguments.parse(
            arguments,
            command: "featured",
            valueOptions: ["interval", "count"],
            flags: []
        )
        if let extra = parsed.positional.first {
            throw .usage("unexpected argument '\(extra)'", command: "featured")
        }
        let interval = try parsed.double("interval", command: "featured") ?? FeaturedPlaceManager.rotationInterval
        guard interval > 0 else { throw .usage("--interval must be more than 0 seconds", command: "featured") }
        let count = try parsed.integer("count", minimum: 0, command: "featured")

        let rotation = Rotation(remaining: count)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let manager = FeaturedPlaceManager(
                timerScheduler: RunLoop.main,
                places: PointOfInterest.sanJose,
                interval: interval
            ) { place in
                output("Featured: \(place.name)")
                rotation.shown(continuation: continuation)
            }
            rotation.manager = manager
            output("Featured: \(manager.currentPlace.name)")
            if count == 0 {
                continuation.resume()
            } else {
                manager.scheduleNextPlace()
            }
        }
    }
}

/// Counts the places shown and schedules the next one until the count is reached.
private final class Rotation: Sendable {
    private let state: Mutex<(remaining: Int?, manager: FeaturedPlaceManager?)>

    init(remaining: Int?) {
        state = Mutex((remaining, nil))
    }

    var manager: FeaturedPlaceManager? {
        get { state.withLock { $0.manager } }
        set { state.withLock { $0.manager = newValue } }
    }

    /// Called for each new place, from the timer on the main run loop (not inside the scheduler's `add`).
    func shown(continuation: CheckedContinuation<Void, Never>) {
        let (finished, manager) = state.withLock { state -> (Bool, FeaturedPlaceManager?) in
            if let remaining = state.remaining {
                state.remaining = remaining - 1
                if remaining - 1 <= 0 { return (true, nil) }
            }
            return (false, state.manager)
        }
        if finished {
            continuation.resume()
        } else {
            manager?.scheduleNextPlace()
        }
    }
}
