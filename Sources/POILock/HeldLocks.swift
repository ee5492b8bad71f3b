#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many `Lock` sections the calling thread is inside now: what lets `SyncPoints` tell a point reported while a
/// lock is still held (where a competing call that takes that lock would wait forever, and the operation for it) from
/// one reported once the thread holds none.
///
/// `Lock` counts in a debug build only, as it reports its points. The count is the thread's own
/// (`pthread_getspecific`), not a task's: a lock's section cannot suspend, so the thread that enters it is the one that
/// leaves it.
enum HeldLocks {
    /// The key of each thread's count, made once.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// The number of lock sections the calling thread is inside now.
    static var count: Int {
        Int(bitPattern: pthread_getspecific(key))
    }

    /// Counts a section the calling thread has entered (its lock taken).
    static func entered() {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: count + 1))
    }

    /// Counts a section the calling thread leaves (its lock about to be released).
    static func left() {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: count - 1))
    }
}
