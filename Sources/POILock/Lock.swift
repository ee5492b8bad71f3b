#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a lock that ThreadSanitizer sees: the package's `Mutex`.
///
/// It has `Synchronization.Mutex`'s shape (`Lock(value)`, `withLock { value in ... }`, the same `sending` rules), so
/// Swift 6's checks treat it the same way, but it is built on `pthread_mutex_t`, whose calls ThreadSanitizer
/// intercepts on every platform. `Mutex` on Linux is not seen: its uncontended path is an atomic in the caller's
/// code, which the sanitizer does see, but under contention the lock changes hands in the Synchronization library
/// (not instrumented) and in the kernel (a futex), so the sanitizer misses the ordering it gives and reports the
/// state it guards as a race. `scripts/sanitizers/mutex-tsan-repro` shows it in 20 lines; docs/linux-and-swift6.md
/// says why this package locks with this type rather than suppress those reports.
///
/// The price against `Mutex`: one allocation for the object and one for the `pthread_mutex_t`, which must not move.
public final class Lock<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written between pthread_mutex_lock and pthread_mutex_unlock, and it goes
    // in and out only as `sending`, as with Mutex (which is Sendable for the same reason).
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock around `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        value = initialValue
        mutex = .allocate(capacity: 1)  // pthread_mutex_init initializes it
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock, and returns what `body` returns.
    ///
    /// Not reentrant: calling `withLock` again from inside `body` deadlocks, as with `Mutex`.
    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "pthread_mutex_lock failed: \(locked)")
        defer {
            let unlocked = pthread_mutex_unlock(mutex)
            precondition(unlocked == 0, "pthread_mutex_unlock failed: \(unlocked)")
        }
        return try body(&value)
    }
}
