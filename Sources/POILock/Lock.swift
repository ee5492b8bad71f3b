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
/// state it guards as a race. `scripts/ci/sanitizers/mutex-tsan-repro` shows it in 20 lines; docs/linux-and-swift6.md
/// says why this package locks with this type rather than suppress those reports.
///
/// The price against `Mutex`: one allocation for the object and one for the `pthread_mutex_t`, which must not move.
public final class Lock<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written between pthread_mutex_lock and pthread_mutex_unlock, and it goes
    // in and out only as `sending`, as with Mutex (which is Sendable for the same reason).
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value
    /// The name its sync points go by (`SyncPoints`); `nil`: it reports none.
    private let name: String?

    /// A lock around `initialValue`; with a `name`, each section that ends reports a sync point to the test that
    /// installed some (`SyncPoints`), in a debug build.
    public init(_ initialValue: consuming sending Value, name: String? = nil) {
        value = initialValue
        self.name = name
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
    /// Not reentrant: calling `withLock` again from inside `body` deadlocks, as with `Mutex`. A named lock reports the
    /// end of the section, once the lock is released, to the sync points installed for the calling task or thread; in
    /// a debug build every lock counts the sections the calling thread is inside, so that a point reported while one
    /// is still held is told apart (`SyncPoints.Point.locksHeld`).
    ///
    /// When `body` throws, its error reaches the caller as it is and the lock is released; what `body` changed in the
    /// value before it threw is kept, as with `Mutex` (the value is changed in place, not copied back).
    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if DEBUG
            defer {
                if let name, let points = SyncPoints.current { points.sectionEnded(on: name) }
            }
        #endif
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "pthread_mutex_lock failed: \(locked)")
        #if DEBUG
            HeldLocks.entered()
        #endif
        defer {
            #if DEBUG
                HeldLocks.left()
            #endif
            let unlocked = pthread_mutex_unlock(mutex)
            precondition(unlocked == 0, "pthread_mutex_unlock failed: \(unlocked)")
        }
        return try body(&value)
    }
}
