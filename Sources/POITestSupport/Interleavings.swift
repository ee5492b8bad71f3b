import Dispatch
import Foundation
public import POILock
import PortableTestSupport

/// Runs a compound operation with another call landing at each of its sync points, each time on fresh objects: the
/// test of docs/15-sync-points.md.
///
/// A dry run finds the points (`SyncPoints`): the end of each section the operation runs on the named locks asked
/// for. Then, for each point, a new subject runs the operation again, and when the operation reaches that point the
/// competing call runs on a thread of its own while the operation's thread waits for it: a call from another thread
/// landing between the two sections. `check` then holds the outcome: nothing lost, nothing done twice, nothing left
/// waiting.
///
/// A point reported while its lock is still held would leave the competing call blocked on that lock, and the
/// operation's thread waiting for it, forever. The dry run sees such a point (`SyncPoints.Point.locksHeld`) and the
/// call throws `PointUnderLock` naming it, before any trial: no competing call is started, nothing waits. The wait for
/// a competing call is bounded all the same (`competingCallLimit`), for a call that blocks on anything else: the trial
/// throws `WaitTimedOut` naming the point once the limit has passed, after the operation has gone on and so let the
/// competing call end.
public enum Interleavings {
    /// How long a trial waits for its competing call: 2 s, a fifth of the standard bound.
    ///
    /// The wait holds the operation's thread, and in a Swift Testing test that is one of the run's few threads (two on a 2-core machine):
    /// with the standard 10 s, a lock that reported its points while held stalled the whole of plain `swift test`
    /// for 81 s, its other tests going over their time limits. A competing call is a few lines of code: its slowest,
    /// in three runs of the unit and integration tiers with the other core busy, came in 6.8 ms (93 waits,
    /// 7 December 2026); CI's sanitized runs hold every wait to half its bound.
    public static let competingCallLimit: Duration = .seconds(2)

    /// The failure of an operation whose dry run reached `point` while still inside a lock section: a competing call
    /// there that takes the lock would wait for it forever, and the operation for the call.
    public struct PointUnderLock: Error, Equatable, CustomStringConvertible {
        /// The first such point the dry run reached, with the number of sections held (`locksHeld`).
        public let point: SyncPoints.Point

        /// The failure for `point`.
        public init(point: SyncPoints.Point) {
            self.point = point
        }

        /// The failure as a test reports it, naming the point and the lock.
        public var description: String {
            "the point \(point) came before the operation left its lock section (\(point.lock) reports its point "
                + "while it is still held): a competing call there would wait for the lock forever, and the "
                + "operation for the call; no competing call was started"
        }
    }

    /// What one run tried: the point the competing call ran at (`nil` for the dry run, which runs none), and whether it
    /// ran.
    public struct Trial: Sendable, CustomStringConvertible {
        /// Where the competing call was to run; `nil` in the dry run.
        public let point: SyncPoints.Point?
        /// Whether the operation reached the point and the competing call ran.
        public let competed: Bool

        /// The trial as a failure names it.
        public var description: String {
            point.map { "the competing call at \($0)" } ?? "the operation alone"
        }
    }

    /// The points `operation` reaches on the locks named in `locks` (every named lock when `nil`), in order.
    ///
    /// When `operation` throws, its error reaches the caller as it is, and the points it ran with are uninstalled all
    /// the same: a later call finds its own, counted from 1 again.
    public static func points(on locks: Set<String>? = nil, of operation: () throws -> Void) rethrows
        -> [SyncPoints.Point]
    {
        let points = SyncPoints()
        try SyncPoints.$current.withValue(points) { try operation() }
        return points.points.filter { locks?.contains($0.lock) ?? true }
    }

    /// For the operation alone and then for each of its points on `locks` (found by the dry run), a new subject from
    /// `make`, the operation run on it with `competing` run at the point, and `check` of the outcome; returns the
    /// trials, the dry run first.
    ///
    /// A point the operation does not reach again (a run that took another path) is a failure of the trial:
    /// `check` sees `competed` false. A point the dry run reached with a lock still held fails the whole call with
    /// `PointUnderLock` naming it, once the dry run has ended and before its check and any trial. A competing call
    /// that has not ended within `limit` fails the whole call with `WaitTimedOut` naming its point.
    ///
    /// A `make`, `operation` or `check` that throws ends the whole call there with its error, as it is: no later trial
    /// runs, a trial whose operation threw is not checked, and no competing call is left running (the operation waits
    /// for it at the point and, when that wait gave up, the call waits for it again before it throws). `competing`
    /// does not throw.
    @discardableResult
    public static func each<Subject: Sendable>(
        _ make: () throws -> Subject,
        on locks: Set<String>? = nil,
        operation: (Subject) throws -> Void,
        competing: @escaping @Sendable (Subject) -> Void,
        competingWithin limit: Duration = competingCallLimit,
        check: (Subject, Trial) throws -> Void
    ) throws -> [Trial] {
        let alone = try make()
        let found = try points(on: locks) { try operation(alone) }
        if let early = found.first(where: { $0.locksHeld > 0 }) { throw PointUnderLock(point: early) }
        var trials = [Trial(point: nil, competed: false)]
        try check(alone, trials[0])
        for point in found {
            let subject = try make()
            let competed = Lock(false)
            let stuck = Lock<WaitTimedOut?>(nil)
            let what = "the competing call at \(point)"
            let ended = DispatchSemaphore(value: 0)
            let points = SyncPoints { reached in
                guard reached == point else { return }
                Thread.detachNewThread {
                    competing(subject)
                    competed.withLock { $0 = true }
                    ended.signal()
                }
                do {
                    try ended.waitBounded(what, within: limit)
                } catch {
                    stuck.withLock { $0 = error as? WaitTimedOut ?? WaitTimedOut(limit: limit) }
                }
            }
            do {
                try SyncPoints.$current.withValue(points) { try operation(subject) }
            } catch {
                // A competing call the wait gave up on ends now that the operation has released its locks.
                if stuck.withLock({ $0 }) != nil { try? ended.waitBounded(what) }
                throw error
            }
            if let stuck = stuck.withLock({ $0 }) {
                // The operation has ended and released its locks: the competing call can end now too.
                try? ended.waitBounded(what)
                throw stuck
            }
            let trial = Trial(point: point, competed: competed.withLock { $0 })
            trials.append(trial)
            try check(subject, trial)
        }
        return trials
    }
}
