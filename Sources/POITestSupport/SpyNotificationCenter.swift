public import Foundation
public import POIApp
import POILock

/// A notification center that records every observer added to it and removed from it, with its queue.
///
/// What an observer's test holds it to: added once, on this center, with the queue it promised; removed from this
/// center when it goes. The talk's mock of an external class (chapter 7), applied to the center: it is a `NotificationChannel`,
/// and it delivers through a real `NotificationCenter` of its own, so the observers' blocks run as they would.
public final class SpyNotificationCenter: NotificationChannel {
    /// One observer added: what it observes, on which queue (`nil`: the posting thread), and its token.
    public struct Addition: Sendable, Equatable {
        /// The notification it observes; `nil`: every notification.
        public let name: Notification.Name?
        /// Whether it was given a queue; `false`: its block runs on the posting thread, before `post` returns.
        public let hasQueue: Bool
        /// Its token, by identity.
        public let token: ObjectIdentifier
    }

    /// The center the observers' blocks are run by.
    public let center = NotificationCenter()
    private let log = Lock<(added: [Addition], removed: [ObjectIdentifier])>(([], []))

    /// A spy with no observer.
    public init() {}

    /// Every observer added, in order.
    public var additions: [Addition] {
        log.withLock { $0.added }
    }

    /// The tokens of every observer removed, in order.
    public var removals: [ObjectIdentifier] {
        log.withLock { $0.removed }
    }

    /// How many observers are added and not removed.
    public var observerCount: Int {
        log.withLock { log in log.added.count - log.added.filter { log.removed.contains($0.token) }.count }
    }

    /// Adds `block` to `center` as an observer of `name` (`nil`: every name) on `queue`, records it in `additions`,
    /// and returns its token.
    public func observe(
        _ name: Notification.Name?, queue: OperationQueue?, using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        let token = center.addObserver(forName: name, object: nil, queue: queue, using: block)
        log.withLock { $0.added.append(Addition(name: name, hasQueue: queue != nil, token: ObjectIdentifier(token))) }
        return token
    }

    /// Records `token` in `removals` and removes its observer from `center`.
    public func stopObserving(_ token: any NSObjectProtocol) {
        log.withLock { $0.removed.append(ObjectIdentifier(token)) }
        center.removeObserver(token)
    }

    /// Posts `name` with `object` on `center`: the blocks observing with no queue have run when it returns.
    public func postNotification(_ name: Notification.Name, object: Any?) {
        center.post(name: name, object: object)
    }
}
