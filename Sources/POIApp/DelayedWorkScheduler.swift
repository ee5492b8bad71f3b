public import Dispatch

/// Runs work after a delay: the `DispatchQueue.asyncAfter` form of the delay the talk's `TimerScheduler` mocks.
///
/// WWDC 2018 session 417, "Test execution speed": find the delay mechanism (a timer, or `DispatchQueue`'s
/// `asyncAfter`, the talk names both), mock it, and run the delayed work at once in tests. `DispatchQueue` conforms
/// below; a test's scheduler records the delay and runs the work when the test says.
///
/// The requirement is not `asyncAfter(deadline:qos:flags:execute:)` itself: a protocol requirement cannot be met by
/// a method with extra defaulted parameters, and a `DispatchTime` deadline would make a mock compute delays from
/// the uptime clock. A delay in seconds is what the caller meant.
public protocol DelayedWorkScheduler {
    /// Runs `work` once, `seconds` from now.
    func schedule(after seconds: Double, execute work: @escaping @Sendable () -> Void)
}

/// The real scheduler: the queue's own `asyncAfter(deadline:execute:)`.
extension DispatchQueue: DelayedWorkScheduler {
    /// Runs `work` on this queue once `seconds` have passed.
    public func schedule(after seconds: Double, execute work: @escaping @Sendable () -> Void) {
        asyncAfter(deadline: Self.deadline(after: seconds, from: .now()), execute: work)
    }

    /// The deadline `seconds` after `now`: apart, so that a test checks it without a queue and without waiting.
    static func deadline(after seconds: Double, from now: DispatchTime) -> DispatchTime {
        now + seconds
    }
}
