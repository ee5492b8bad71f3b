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
}
