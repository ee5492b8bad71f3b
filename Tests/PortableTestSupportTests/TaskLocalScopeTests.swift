import Foundation
import POILock
import Testing

@testable import PortableTestSupport

/// The scoping trait behind `.isolatedNotificationCenter` and `.manualClock`: each test case gets a new value in its
/// task-local, and code outside such a test sees none.
@Suite("TaskLocalScope", .timeLimit(.minutes(1)))
struct TaskLocalScopeTests {
    /// A value of a test's own, as a package adds one: a task-local and a trait that binds it.
    @TaskLocal static var current: Int?

    /// Numbers handed out by `numbered`, each once.
    static let next = Lock(0)

    /// The trait of this suite's own value: a new number for each test case.
    static var numbered: TaskLocalScope<Int> {
        TaskLocalScope($current) {
            next.withLock { number in
                defer { number += 1 }
                return number
            }
        }
    }

    /// The centers `.isolatedNotificationCenter` gave, kept so that none is freed and its address reused.
    static let centers = Lock<[NotificationCenter]>([])

    @Test(
        "Each case of a test with .isolatedNotificationCenter gets a center of its own", .isolatedNotificationCenter,
        arguments: 1...3)
    func isolatedNotificationCenter(_ index: Int) throws {
        let center = try #require(IsolatedNotificationCenter.current)
        #expect(center !== NotificationCenter.default)
        let seenBefore = Self.centers.withLock { centers in
            defer { centers.append(center) }
            return centers.contains { $0 === center }
        }
        #expect(!seenBefore, "case \(index) got a center another case had")
    }

    @Test("A test with .manualClock gets a clock of its own at its zero instant", .manualClock)
    func manualClock() throws {
        let clock = try #require(ManualClock.current)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }

    /// The numbers the cases of `ownValue` were given.
    static let numbersSeen = Lock<Set<Int>>([])

    @Test(
        "A trait of a package's own value binds a new one for each case", TaskLocalScopeTests.numbered, arguments: 1...3
    )
    func ownValue(_ index: Int) throws {
        let number = try #require(Self.current)
        let isNew = Self.numbersSeen.withLock { $0.insert(number).inserted }
        #expect(isNew, "case \(index) got the value another case had")
    }

    @Test("Without the traits, a test sees no value")
    func outside() {
        #expect(IsolatedNotificationCenter.current == nil)
        #expect(ManualClock.current == nil)
        #expect(Self.current == nil)
    }

    /// The clocks the cases of `ManualClockSuite/ownClock(_:)` were given, kept so that none is freed and its address
    /// reused.
    static let suiteClocks = Lock<[ManualClock]>([])

    /// A suite with `.manualClock`: the trait applies to every test in it (`isRecursive`), each case getting its own
    /// clock.
    @Suite(.manualClock)
    struct ManualClockSuite {
        @Test("Each case of a test in a suite with .manualClock gets a clock of its own", arguments: 1...3)
        func ownClock(_ index: Int) throws {
            #expect(TaskLocalScope<ManualClock>.manualClock.isRecursive)
            let clock = try #require(ManualClock.current)
            #expect(clock.now == ManualClock.Instant(offset: .zero))
            let seenBefore = TaskLocalScopeTests.suiteClocks.withLock { clocks in
                defer { clocks.append(clock) }
                return clocks.contains { $0 === clock }
            }
            #expect(!seenBefore, "case \(index) got a clock another case had")
        }
    }

    @Test("TaskLocalScope.isolatedNotificationCenter binds a new center, never the default one, in each scope")
    func isolatedNotificationCenterScopes() async throws {
        let test = try #require(Test.current)
        let trait = TaskLocalScope<NotificationCenter>.isolatedNotificationCenter
        let centers = Lock<[NotificationCenter]>([])
        for _ in 0..<2 {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let center = try #require(IsolatedNotificationCenter.current)
                centers.withLock { $0.append(center) }
            }
        }
        let seen = centers.withLock { $0 }
        try #require(seen.count == 2)
        #expect(seen[0] !== seen[1], "the second scope got the first one's center")
        #expect(seen.allSatisfy { $0 !== NotificationCenter.default })
        #expect(IsolatedNotificationCenter.current == nil)
    }

    @Test("TaskLocalScope.manualClock binds a new clock at its zero instant in each scope")
    func manualClockScopes() async throws {
        let test = try #require(Test.current)
        let trait = TaskLocalScope<ManualClock>.manualClock
        let clocks = Lock<[ManualClock]>([])
        for _ in 0..<2 {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let clock = try #require(ManualClock.current)
                #expect(clock.now == ManualClock.Instant(offset: .zero))
                clock.advance(by: .seconds(5))  // a scope's time is its own: the next one starts at zero
                clocks.withLock { $0.append(clock) }
            }
        }
        let seen = clocks.withLock { $0 }
        try #require(seen.count == 2)
        #expect(seen[0] !== seen[1], "the second scope got the first one's clock")
        #expect(ManualClock.current == nil)
    }

    struct Thrown: Error, Equatable {}

    @Test("The scope of a body that throws: the error comes through, the value is unbound, the next scope binds anew")
    func scopeThrows() async throws {
        let test = try #require(Test.current)
        let trait = Self.numbered
        let first = Lock<Int?>(nil)
        await #expect(throws: Thrown()) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                first.withLock { $0 = Self.current }
                throw Thrown()
            }
        }
        #expect(Self.current == nil)
        let second = Lock<Int?>(nil)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            second.withLock { $0 = Self.current }
        }
        let (thrown, next) = (try #require(first.withLock { $0 }), try #require(second.withLock { $0 }))
        #expect(next != thrown, "the next scope got the value of the one that threw")
        #expect(Self.current == nil)
    }

    @Test("The scope of a body whose task is cancelled: the cancellation comes through, the value is unbound")
    func scopeCancelled() async throws {
        let test = try #require(Test.current)
        let trait: TaskLocalScope<ManualClock> = .manualClock
        let (clocks, hand) = AsyncStream.makeStream(of: ManualClock.self)
        let scoped = Task {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let clock = try #require(ManualClock.current)
                hand.yield(clock)
                try await clock.sleep(for: .seconds(60))
            }
        }
        var handed = clocks.makeAsyncIterator()
        let clock = try #require(try await handed.boundedNext("the scoped body's clock"))
        try await clock.waitForSleepers()
        scoped.cancel()
        await #expect(throws: CancellationError.self) {
            try await scoped.boundedValue("the cancelled scope's end")
        }
        #expect(clock.sleepingDeadlines.isEmpty)
        #expect(ManualClock.current == nil)
    }
}
