import Foundation

/// A thread of this process as the kernel sees it: whether it is asleep.
///
/// A test of a wake-up first knows that the thread it wakes is blocked: a test that stops a listener before its thread has reached `poll` proves nothing
/// of the wake: the thread finds the listener stopped on its way in.
///
/// Linux tells a thread's state in `/proc/self/task/TID/stat`; where there is no `/proc` (macOS) the state is unknown
/// (`nil`), and a test relies on the system-call seam alone (`FaultInjector.count(of:)`: the thread has made the call).
public struct KernelThread: Sendable, CustomStringConvertible {
    /// The kernel's id of the thread (Linux's TID), `nil` where the system does not say.
    public let identifier: String?

    /// The calling thread.
    public static func current() -> KernelThread {
        // /proc/thread-self is a link to PID/task/TID.
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        return KernelThread(identifier: link.flatMap { $0.split(separator: "/").last.map(String.init) })
    }

    /// Whether the thread is asleep in the kernel, as a thread blocked in `poll` or `read` is (Linux's state `S`);
    /// `nil` where the system does not say.
    public var isAsleep: Bool? {
        guard let identifier,
            let stat = try? String(contentsOfFile: "/proc/self/task/\(identifier)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        // "TID (name) S ...": the state follows the name, which may hold spaces and parentheses.
        return stat[nameEnd...].dropFirst(2).first == "S"
    }

    /// Why `waitUntilAsleep` gave up.
    public struct NotAsleep: Error, CustomStringConvertible {
        /// What it waited for.
        public let description: String
    }

    /// Returns once `ready()` holds (the thread has made its call, by the seam's count, say) and the thread `thread()`
    /// gives is asleep where the system tells (Linux), or is gone; throws `NotAsleep` after `limit`.
    ///
    /// A thread that has not yet said which it is (`thread()` is `nil`) is waited for. Cancelling the calling task
    /// ends the wait at its next look, without waiting out `limit`: it throws `CancellationError`.
    public static func waitUntilAsleep(
        _ thread: @Sendable () -> KernelThread?, after ready: @Sendable () -> Bool = { true },
        limit: Duration = .seconds(10)
    ) async throws {
        let deadline = ContinuousClock.now.advanced(by: limit)
        while !ready() || thread().map({ $0.isAsleep == false }) ?? true {
            try Task.checkCancellation()
            guard ContinuousClock.now < deadline else {
                throw NotAsleep(
                    description: "\(thread().map(String.init(describing:)) ?? "the thread") did not block "
                        + "within \(limit)")
            }
            await Task.yield()
        }
    }

    /// The thread as a failure message names it.
    public var description: String {
        identifier.map { "thread \($0)" } ?? "a thread"
    }
}
