import Foundation
import POIApp
import POICommandLine
import POIDomain

/// `poi featured`: the featured place, rotated by the talk's `FeaturedPlaceManager` through `RunLoop.main`, the
/// real `TimerScheduler`.
struct FeaturedCommand {
    static let interval = Option.seconds(
        "interval", "time between two places", default: FeaturedPlaceManager.rotationInterval)
    static let count = Option.value("count", "N", "stop after N more places (default: run until interrupted)")

    static let description = CommandDescription(
        name: "poi featured",
        helpCommand: "poi help featured",
        abstract: "shows the featured place, then the next one every interval.",
        options: [interval, count],
        examples: ["poi featured --interval 2 --count 3"]
    )

    /// Parses the arguments; throws a usage error for bad ones, before anything is shown.
    func parse(_ arguments: [String]) throws(CommandLineError) -> (interval: TimeInterval, count: Int?) {
        let parsed = try Self.description.parse(arguments)
        try parsed.expectNoPositional()
        let interval = try parsed.seconds(Self.interval) ?? FeaturedPlaceManager.rotationInterval
        // No maximum: a count past Int.max reads as Int.max, more places than a run of poi shows before it is stopped.
        return (interval, try parsed.integer(Self.count, minimum: 0))
    }

    /// Shows the first place, then rotates `count` times on the main run loop, or until the process ends.
    @MainActor
    func run(interval: TimeInterval, count: Int?, output: @escaping @Sendable (String) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let manager = FeaturedPlaceManager(
                timerScheduler: RunLoop.main,
                places: PointOfInterest.sanJose,
                interval: interval
            ) { place in
                // RunLoop.main is the scheduler: each timer fires, and each place is shown, on the main thread, as an
                // app updates its interface (poi's main.swift runs that loop).
                MainActor.assertIsolated("poi featured's timers fire on the main run loop")
                output("Featured: \(place.name)")
            }
            output("Featured: \(manager.currentPlace.name)")
            manager.startRotation(count: count) { continuation.resume() }
        }
    }
}
