import Foundation

/// Runs blocking work (a read of a pipe to its end, a process's launch) on a new thread of its own.
///
/// The work blocks its thread until a child process writes or ends, which may take the test's whole time. On one of
/// Swift's cooperative threads it would hold back every other test's tasks (the pool has as many threads as cores),
/// and on Dispatch's global queues too on Linux, where libdispatch adds a worker thread only after it notices that
/// its threads are all blocked.
enum DedicatedThread {
    /// Runs `work` on a new thread and returns its result.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: work())
            }
        }
    }

    /// Runs `work` on a new thread and returns its result or throws its error.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
