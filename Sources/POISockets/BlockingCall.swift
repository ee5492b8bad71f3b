import Foundation

/// Runs blocking work (socket reads, pipe reads) on a thread of its own.
///
/// Linux: blocking calls must stay off both Swift's cooperative pool and Dispatch's global queues. libdispatch on
/// Linux adds a worker thread only after it notices that its threads are all blocked, so a server that blocks a
/// global-queue thread per connection answers many clients at the pace of that slow growth instead of at once.
public enum BlockingCall {
    /// Runs `work` on a new thread and returns its result.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: work())
            }
        }
    }

    /// Runs `work` on a new thread and returns its result or throws its error.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// Starts `work` on a new thread and returns at once.
    public static func start(_ work: @escaping @Sendable () -> Void) {
        Thread.detachNewThread(work)
    }
}
