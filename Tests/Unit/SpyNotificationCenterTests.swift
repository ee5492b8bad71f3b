import Foundation
import POILock
import POITestSupport
import PortableTestSupport
import Testing

/// The spy center itself: each observer it adds, runs and removes through its own center, recorded as it goes.
@Suite("SpyNotificationCenter")
struct SpyNotificationCenterTests {
    static let name = Notification.Name("SpyNotificationCenterTests.name")
    static let other = Notification.Name("SpyNotificationCenterTests.other")

    /// A block that appends the object of each notification it hears to `heard`.
    static func appending(to heard: Lock<[String]>) -> @Sendable (Notification) -> Void {
        { notification in heard.withLock { $0.append(notification.object as? String ?? "no object") } }
    }

    @Test("observe adds the block to its center and records the observer's name, its queue and the token it returns")
    func observe() {
        let spy = SpyNotificationCenter()
        let heard = Lock<[String]>([])
        let token = spy.observe(Self.name, queue: nil, using: Self.appending(to: heard))
        #expect(spy.additions.map(\.token) == [ObjectIdentifier(token)])
        #expect(spy.additions.map(\.name) == [Self.name])
        #expect(spy.additions.map(\.hasQueue) == [false])
        #expect(spy.observerCount == 1)
        spy.center.post(name: Self.name, object: "posted on the center")
        spy.center.post(name: Self.other, object: "another name")
        #expect(heard.withLock { $0 } == ["posted on the center"], "the block is the center's, for its name only")
        spy.stopObserving(token)
    }

    @Test("An observer given a queue is recorded with it, and its block runs on that queue")
    func observeOnAQueue() throws {
        let spy = SpyNotificationCenter()
        let queue = OperationQueue()
        let heard = DispatchSemaphore(value: 0)
        let token = spy.observe(nil, queue: queue) { _ in heard.signal() }
        defer { spy.stopObserving(token) }
        #expect(spy.additions.map(\.hasQueue) == [true])
        #expect(spy.additions.map(\.name) == [nil], "nil: every name")
        spy.post(name: Self.other, object: nil)
        try heard.waitBounded("the block, on its queue")
    }

    @Test("stopObserving removes the block from the center and records the token, once per observer")
    func stopObserving() {
        let spy = SpyNotificationCenter()
        let heard = Lock<[String]>([])
        let first = spy.observe(Self.name, queue: nil, using: Self.appending(to: heard))
        let second = spy.observe(Self.name, queue: nil, using: Self.appending(to: heard))
        spy.stopObserving(first)
        #expect(spy.removals == [ObjectIdentifier(first)])
        #expect(spy.observerCount == 1)
        spy.post(name: Self.name, object: "after the first went")
        #expect(heard.withLock { $0 } == ["after the first went"], "only the second block runs")
        spy.stopObserving(second)
        #expect(spy.removals == [ObjectIdentifier(first), ObjectIdentifier(second)])
        #expect(spy.observerCount == 0)
        spy.center.post(name: Self.name, object: "none left")
        #expect(heard.withLock { $0 } == ["after the first went"])
    }

    @Test("postNotification and post(name:object:) deliver through the center, before they return, with the object")
    func posts() {
        let spy = SpyNotificationCenter()
        let heard = Lock<[String]>([])
        let token = spy.observe(Self.name, queue: nil, using: Self.appending(to: heard))
        defer { spy.stopObserving(token) }
        spy.postNotification(Self.name, object: "postNotification")
        #expect(heard.withLock { $0 } == ["postNotification"])
        spy.post(name: Self.name, object: "post")
        #expect(heard.withLock { $0 } == ["postNotification", "post"])
        NotificationCenter.default.post(name: Self.name, object: "the default center")
        #expect(
            heard.withLock { $0 } == ["postNotification", "post"], "only the spy's own center reaches its observers")
    }
}
