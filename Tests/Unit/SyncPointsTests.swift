import Foundation
import POILock
import POITestSupport
import PortableTestSupport
import Testing

/// The sync points themselves: what a named lock reports, to whom, and with what held.
@Suite("SyncPoints")
struct SyncPointsTests {
    @Test(
        "A named lock reports the end of each of its sections, counted per lock, in order; an unnamed one reports none")
    func reportsEachSection() {
        let first = Lock(0, name: "first")
        let second = Lock(0, name: "second")
        let unnamed = Lock(0)
        let points = SyncPoints()
        SyncPoints.$current.withValue(points) {
            first.withLock { $0 += 1 }
            second.withLock { $0 += 1 }
            unnamed.withLock { $0 += 1 }
            first.withLock { $0 += 1 }
        }
        first.withLock { $0 += 1 }  // no points installed here
        #expect(points.points == [.init("first", 1), .init("second", 1), .init("first", 2)])
        #expect(points.points.map(\.description) == ["first #1", "second #1", "first #2"])
        #expect(points.points.map(\.lock) == ["first", "second", "first"], "the name each lock was given")
        #expect(points.points.map(\.section) == [1, 1, 2], "each lock's sections counted from 1")
    }

    @Test("A section that throws reports its end too")
    func reportsAThrowingSection() {
        struct Failed: Error {}
        let lock = Lock(0, name: "throwing")
        let points = SyncPoints()
        SyncPoints.$current.withValue(points) {
            #expect(throws: Failed.self) { try lock.withLock { _ throws(Failed) in throw Failed() } }
        }
        #expect(points.points == [.init("throwing", 1)])
    }

    @Test("The action runs with the lock released and the points uninstalled: its own sections report nothing")
    func actionRunsOutside() async throws {
        let lock = Lock(0, name: "shared")
        let inside = Lock<[Int]>([])
        let points = SyncPoints { point in
            // Taking the same lock would deadlock if the section had not ended; it is not reported again.
            let value = lock.withLock { value in
                value += 10
                return value
            }
            inside.withLock { $0.append(value) }
            #expect(SyncPoints.current == nil)
            _ = point
        }
        // On a thread of its own, waited for with a bound: were the point reported while the lock is held and its
        // action run all the same, the action would wait for the lock its own thread holds, forever (SyncPoints runs
        // no action for such a point: `pointUnderALock`). The test then fails naming the wait, and only that thread is
        // left blocked; on a thread of Swift Testing's pool it blocked one of the run's threads (two, here) and the
        // whole run stalled, its other tests over their time limits (stop 64: 144 s, then a crash).
        try await boundedContinuation("the section's end, its action taking the same lock again") {
            (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                SyncPoints.$current.withValue(points) {
                    lock.withLock { $0 += 1 }
                }
                done.resume()
            }
        }
        #expect(inside.withLock { $0 } == [11])
        #expect(points.points == [.init("shared", 1)])
    }

    @Test("Points installed on a thread of its own report that thread's sections, not another's")
    func onAThread() async throws {
        let lock = Lock(0, name: "threaded")
        let points = SyncPoints()
        try await boundedContinuation("the thread with points installed") { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                SyncPoints.$current.withValue(points) { lock.withLock { $0 += 1 } }
                done.resume()
            }
        }
        try await boundedContinuation("the thread without points") { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                lock.withLock { $0 += 1 }
                done.resume()
            }
        }
        #expect(points.points == [.init("threaded", 1)])
    }

    /// Two named locks and a counter of what ran.
    final class TwoSteps: Sendable {
        let steps = Lock<[String]>([], name: "steps")

        func operation(takingTheLongWay: Bool) {
            steps.withLock { $0.append("check") }
            if takingTheLongWay { steps.withLock { $0.append("act") } }
        }
    }

    @Test("Interleavings: the operation alone, then the competing call at each of its points, each on a new subject")
    func interleavings() throws {
        let trials = try Interleavings.each(
            TwoSteps.init, operation: { $0.operation(takingTheLongWay: true) },
            competing: { $0.steps.withLock { $0.append("other") } },
            check: { subject, trial in
                let steps = subject.steps.withLock { $0 }
                switch trial.point?.section {
                case nil: #expect(steps == ["check", "act"])
                case 1: #expect(steps == ["check", "other", "act"])
                default: #expect(steps == ["check", "act", "other"])
                }
                #expect(trial.point == nil || trial.competed)
            })
        #expect(trials.map(\.point) == [nil, .init("steps", 1), .init("steps", 2)])
        #expect(
            trials.map(\.description) == [
                "the operation alone", "the competing call at steps #1", "the competing call at steps #2",
            ])
    }

    @Test(
        "Interleavings.points: the operation's error reaches the caller as it is, the points uninstalled all the same")
    func pointsOfAThrowingOperation() throws {
        struct Failed: Error, Equatable {}
        let lock = Lock(0, name: "pointsOfAThrowingOperation")
        #expect(throws: Failed()) {
            try Interleavings.points {
                lock.withLock { $0 += 1 }
                #expect(SyncPoints.current != nil, "installed while the operation runs")
                throw Failed()
            }
        }
        #expect(SyncPoints.current == nil)
        let again = Interleavings.points(on: ["pointsOfAThrowingOperation"]) { lock.withLock { $0 += 1 } }
        #expect(again == [.init("pointsOfAThrowingOperation", 1)], "a later call finds its own, counted from 1")
    }

    /// A subject of two steps, its number among the subjects of one run, and how many competing calls on it ended.
    final class Numbered: Sendable {
        let steps = TwoSteps()
        let number: Int
        let competingEnded = Lock(0)

        init(_ number: Int) {
            self.number = number
        }
    }

    @Test(
        "Interleavings.each: a make, operation or check that throws ends the call with its error as it is, nothing left",
        arguments: ["make", "operation", "check"])
    func eachWithAThrowingStep(step: String) throws {
        struct Failed: Error, Equatable {
            let step: String
        }
        let made = Lock<[Numbered]>([])
        var checked: [String] = []
        var operations = 0
        // The dry run goes through; the first point's trial throws at `step`, after its competing call for an operation
        // or a check.
        #expect(throws: Failed(step: step)) {
            try Interleavings.each(
                {
                    let number = made.withLock { $0.count + 1 }
                    if step == "make" && number == 2 { throw Failed(step: step) }
                    let subject = Numbered(number)
                    made.withLock { $0.append(subject) }
                    return subject
                },
                operation: { subject in
                    operations += 1
                    subject.steps.operation(takingTheLongWay: true)
                    if step == "operation" && subject.number == 2 { throw Failed(step: step) }
                },
                competing: { subject in
                    subject.steps.steps.withLock { $0.append("other") }
                    subject.competingEnded.withLock { $0 += 1 }
                },
                check: { subject, trial in
                    checked.append(trial.description)
                    if step == "check" && subject.number == 2 { throw Failed(step: step) }
                })
        }
        #expect(SyncPoints.current == nil)
        let subjects = made.withLock { $0 }
        #expect(subjects.count == (step == "make" ? 1 : 2), "no subject made after the throw")
        #expect(operations == (step == "make" ? 1 : 2), "no operation run after the throw")
        let expectedChecks =
            step == "check" ? ["the operation alone", "the competing call at steps #1"] : ["the operation alone"]
        #expect(checked == expectedChecks, "no trial checked after the throw, nor the one whose operation threw")
        #expect(
            subjects.map { $0.competingEnded.withLock { $0 } } == (step == "make" ? [0] : [0, 1]),
            "the competing call ended before the call threw")
        // Nothing left installed or waiting: the next call runs every trial.
        let trials = try Interleavings.each(
            TwoSteps.init, operation: { $0.operation(takingTheLongWay: true) }, competing: { _ in },
            check: { _, _ in })
        #expect(trials.count == 3)
    }

    @Test("A competing call the trial gave up on, then the operation throws: its error, once the competing call ended")
    func competingCallStuckThenOperationThrows() throws {
        struct Failed: Error, Equatable {}
        // The competing call outlives the trial's wait (50 ms), held by a gate the operation opens after its section,
        // and then ends only once the operation's thread sleeps: waiting for it, as the call must before it throws.
        // Were the call to throw at once, its thread would never sleep before the test looks, and the competing call
        // would still be running then. (Where the system does not say whether a thread sleeps, it ends at once.)
        final class Gated: Sendable {
            let inner = Lock(0, name: "inner")
            let gate = DispatchSemaphore(value: 0)
            let operationThread = Lock<KernelThread?>(nil)
            let competingEnded = Lock(false)
            let isDryRun: Bool

            init(isDryRun: Bool) {
                self.isDryRun = isDryRun
            }
        }
        let made = Lock<[Gated]>([])
        #expect(throws: Failed()) {
            try Interleavings.each(
                {
                    let gated = Gated(isDryRun: made.withLock { $0.isEmpty })
                    made.withLock { $0.append(gated) }
                    return gated
                },
                operation: { gated in
                    gated.operationThread.withLock { $0 = .current() }
                    gated.inner.withLock { $0 += 1 }
                    gated.gate.signal()
                    if !gated.isDryRun { throw Failed() }
                },
                competing: { gated in
                    _ = gated.gate.wait(timeout: .now() + .seconds(10))
                    let operationThread = gated.operationThread.withLock { $0 }
                    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
                    while operationThread?.isAsleep == false && ContinuousClock.now < deadline {}
                    gated.competingEnded.withLock { $0 = true }
                },
                competingWithin: .milliseconds(50), check: { _, _ in })
        }
        let trial = try #require(made.withLock { $0.last })
        #expect(!trial.isDryRun)
        #expect(trial.competingEnded.withLock { $0 }, "the competing call had ended when the call threw")
    }

    @Test("A competing call the waiting operation blocks fails the trial at the limit, naming the point: 2 s if unsaid")
    func competingCallStuck() throws {
        // The competing call waits for a signal the operation gives only after its section, so it cannot end while the
        // operation waits for it at the point, as a call blocked on a lock reported while held could not. Its own wait
        // is bounded too; the gate is each subject's own, as the dry run gives its signal as well.
        final class Gated: Sendable {
            let inner = Lock(0, name: "inner")
            let gate = DispatchSemaphore(value: 0)
        }
        let limit = Duration.milliseconds(50)
        #expect(throws: WaitTimedOut(limit: limit, what: "the competing call at inner #1")) {
            try Interleavings.each(
                Gated.init,
                operation: { gated in
                    gated.inner.withLock { $0 += 1 }
                    gated.gate.signal()
                },
                competing: { gated in _ = gated.gate.wait(timeout: .now() + .seconds(10)) }, competingWithin: limit,
                check: { _, _ in })
        }
        #expect(Interleavings.competingCallLimit == .seconds(2))
    }

    @Test("A point the operation does not reach again is a trial without the competing call")
    func pointNotReachedAgain() throws {
        let runs = Lock(0)
        let trials = try Interleavings.each(
            TwoSteps.init,
            operation: { subject in
                let first = runs.withLock { runs in
                    runs += 1
                    return runs == 1
                }
                subject.operation(takingTheLongWay: first)
            },
            competing: { _ in }, check: { _, _ in })
        #expect(trials.map(\.competed) == [false, true, false])
    }

    /// An operation whose named lock's section ends inside another lock's section, as a lock that reports its point
    /// before it releases itself does.
    final class Nested: Sendable {
        let outer = Lock(0)
        let inner = Lock(0, name: "nestedInner")
        let competingCalls = Lock(0)

        func operation() {
            outer.withLock { _ in inner.withLock { $0 += 1 } }
            inner.withLock { $0 += 1 }
        }

        func compete() {
            competingCalls.withLock { $0 += 1 }
        }
    }

    @Test("A point reported inside a lock section is listed with the sections held, and runs no action")
    func pointUnderALock() {
        let nested = Nested()
        let actions = Lock<[SyncPoints.Point]>([])
        let points = SyncPoints { point in actions.withLock { $0.append(point) } }
        SyncPoints.$current.withValue(points) { nested.operation() }
        #expect(points.points == [.init("nestedInner", 1, locksHeld: 1), .init("nestedInner", 2)])
        #expect(points.points.map(\.locksHeld) == [1, 0])
        #expect(actions.withLock { $0 } == [.init("nestedInner", 2)], "no action for the point under the outer lock")
        #expect(
            points.points.map(\.description) == ["nestedInner #1, reported with 1 lock held", "nestedInner #2"])
        #expect(SyncPoints.Point("a", 3, locksHeld: 2).description == "a #3, reported with 2 locks held")
    }

    @Test("Interleavings: a point reached under a lock fails the call at once, naming it; no trial, no competing call")
    func interleavingsPointUnderALock() {
        let checked = Lock(0)
        let made = Lock<[Nested]>([])
        let point = SyncPoints.Point("nestedInner", 1, locksHeld: 1)
        let started = ContinuousClock.now
        #expect(throws: Interleavings.PointUnderLock(point: point)) {
            try Interleavings.each(
                {
                    let nested = Nested()
                    made.withLock { $0.append(nested) }
                    return nested
                },
                operation: { $0.operation() },
                competing: { $0.compete() },
                check: { _, _ in checked.withLock { $0 += 1 } })
        }
        #expect(ContinuousClock.now - started < Interleavings.competingCallLimit, "named before any wait")
        #expect(made.withLock { $0.count } == 1, "the dry run's subject only")
        #expect(made.withLock { $0.map { $0.competingCalls.withLock { $0 } } } == [0], "no competing call started")
        #expect(checked.withLock { $0 } == 0, "not even the dry run checked")
        #expect(Interleavings.PointUnderLock(point: point).point.locksHeld == 1)
        #expect(
            Interleavings.PointUnderLock(point: point).description
                == "the point nestedInner #1, reported with 1 lock held came before the operation left its lock "
                + "section (nestedInner reports its point while it is still held): a competing call there would wait "
                + "for the lock forever, and the operation for the call; no competing call was started")
        // Only the locks asked for: the same operation's points on another lock leave nothing to wait for.
        #expect(throws: Never.self) {
            try Interleavings.each(
                Nested.init, on: ["elsewhere"], operation: { $0.operation() }, competing: { _ in },
                check: { _, _ in })
        }
    }
}
