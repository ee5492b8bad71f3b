#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a lock that ThreadSanitizer sees: `Mutex`'s shape over `pthread_mutex_t`.
///
/// A copy of POILock's `Lock`, internal: PortableTestSupport depends on nothing of the package it is copied from.
/// `Synchronization.Mutex` is not seen by ThreadSanitizer on Linux when it is contended (its slow path runs in a
/// library the sanitizer does not instrument, and in the kernel), so it reports the state it guards as a race: the
/// stub's registry drew such reports. The package's docs/linux-and-swift6.md says more.
final class Lock<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written between pthread_mutex_lock and pthread_mutex_unlock, and it goes
    // in and out only as `sending`, as with Mutex (which is Sendable for the same reason).
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock around `initialValue`.
    init(_ initialValue: consuming sending Value) {
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
    func withLock<Result, E: Error>(
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
