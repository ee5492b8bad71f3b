public import Foundation

/// Something a `Timer` can be added to: the talk's `TimerScheduler`.
///
/// WWDC 2018 session 417, "Test execution speed": `Timer.scheduledTimer` both makes a timer and adds it to the
/// current run loop. Splitting the two steps shows that the run loop is just another external object, so it can
/// be mocked with a protocol: a test's scheduler fires the timer at once instead of waiting ten seconds.
public protocol TimerScheduler {
    /// Schedules `timer` in `mode`, as `RunLoop.add(_:forMode:)` does.
    func add(_ timer: Timer, forMode mode: RunLoop.Mode)
}

/// The real scheduler: `RunLoop` already has the method.
extension RunLoop: TimerScheduler {}
