/// Named points between the lock sections of a compound operation, where a test runs code of its own: RocksDB's
/// sync points, for a `Lock` that has a name.
///
/// An operation that takes a lock twice (check, then act) can lose another thread's call that lands between the two
/// sections, and no test sees it unless the call is made to land there. A test installs points for the operation it
/// runs (`SyncPoints.$current.withValue(points) { operation() }`, in a task or on a plain thread); every named lock
/// then reports, each time one of its sections ends on that task or thread, the point it reached: the end of the
/// lock's first section, its second, and so on. The test's action runs there, with the lock released and the
/// points uninstalled (so the competing call it makes is not itself stopped), before the operation goes on. A point
/// reported while a lock is still held is listed with the count (`Point.locksHeld`) and runs no action.
///
/// Compiled in for tests only: `Lock` reports in a debug build (`DEBUG`), and a release build has no call at all.
/// docs/15-sync-points.md lists every compound operation of the package's locks, its points, and the test that runs the
/// competing call at each.
public final class SyncPoints: Sendable {
    /// The end of the `section`th section (counted from 1) that the installing task or thread ran on the lock named
    /// `lock`.
    public struct Point: Hashable, Sendable, CustomStringConvertible {
        /// The lock's name (`Lock(value, name:)`).
        public let lock: String
        /// Which of its sections ended, counted from 1.
        public let section: Int
        /// How many lock sections the reporting thread was still inside when it reported the point.
        ///
        /// 0 for a point reported as it should be, once its lock is released (and the thread holds no other). More is
        /// a lock that reports too early, or a section nested in another's: a competing call that takes that lock would
        /// wait for it forever, and the operation for the call.
        public let locksHeld: Int

        /// A point of `lock`'s `section`th section, reported with `locksHeld` lock sections still held (none unless
        /// said).
        public init(_ lock: String, _ section: Int, locksHeld: Int = 0) {
            self.lock = lock
            self.section = section
            self.locksHeld = locksHeld
        }

        /// The point as a failure names it: `APIRequestLoad.state #1`, and `APIRequestLoad.state #1, reported with 1
        /// lock held` for one reported too early.
        public var description: String {
            let held = locksHeld == 0 ? "" : ", reported with \(locksHeld) lock\(locksHeld == 1 ? "" : "s") held"
            return "\(lock) #\(section)\(held)"
        }
    }

    /// The points of the task or thread that runs now; `nil` (no point is reported) unless a test installed some.
    @TaskLocal public static var current: SyncPoints?

    private let action: @Sendable (Point) -> Void
    private let sections = Lock<[String: Int]>([:])
    private let reached = Lock<[Point]>([])

    /// Points at which `action` is called, each time a named lock's section ends on the task or thread they are
    /// installed on.
    public init(_ action: @escaping @Sendable (Point) -> Void = { _ in }) {
        self.action = action
    }

    /// Every point reached so far, in the order they were reached.
    public var points: [Point] {
        reached.withLock { $0 }
    }

    /// Called by a named `Lock` once a section of its has ended (the lock released): counts the section and runs the
    /// action, the points uninstalled for its length.
    ///
    /// A point reported while the thread is still inside a lock section (`Point.locksHeld`) is counted and listed with
    /// that number, but its action is not run: an action that took the lock, or made a call on another thread that
    /// does, would wait for it forever. The test that reads the points, or `Interleavings`, names it at once instead.
    func sectionEnded(on lock: String) {
        let held = HeldLocks.count
        let section = sections.withLock { sections in
            sections[lock, default: 0] += 1
            return sections[lock, default: 0]
        }
        let point = Point(lock, section, locksHeld: held)
        reached.withLock { $0.append(point) }
        guard held == 0 else { return }
        Self.$current.withValue(nil) {
            action(point)
        }
    }
}
