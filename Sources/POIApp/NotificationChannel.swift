public import Foundation

/// What the package's notification observers use of a `NotificationCenter`: add an observer, remove it, post.
///
/// The talk's technique for an external class (chapter 7) applied to the center itself.
///
/// `NotificationCenter` conforms, so the talk's initializers, which take one, keep compiling; a test gives a spy
/// instead (POITestSupport's `SpyNotificationCenter`) that records every observer added and removed, with its
/// queue, and so holds an observer to its promise: added once, on the center it was given, with the queue it
/// promised; removed from that same center when it goes. On Linux a `NotificationCenter` subclass cannot spy:
/// `addObserver` and `removeObserver` are not open there (docs/05-isolating-notification-observers.md).
public protocol NotificationChannel: AnyObject, Sendable {
    /// Adds an observer of `name` (`nil`: of every name, as `NotificationCenter`'s) from any object, whose `block`
    /// runs on `queue` (`nil`: on the posting thread, before `post` returns), and returns its token.
    func observe(
        _ name: Notification.Name?, queue: OperationQueue?, using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol

    /// Removes the observer that `observe` returned `token` for.
    func stopObserving(_ token: any NSObjectProtocol)

    /// Posts `name` with `object`: what `post(name:object:)` calls.
    func postNotification(_ name: Notification.Name, object: Any?)
}

extension NotificationChannel {
    /// Posts `name` with `object`, as `NotificationCenter.post(name:object:)` does.
    public func post(name: Notification.Name, object: Any?) {
        postNotification(name, object: object)
    }
}

extension NotificationCenter: NotificationChannel {
    /// `addObserver(forName:object:queue:using:)`, from any object.
    public func observe(
        _ name: Notification.Name?, queue: OperationQueue?, using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        addObserver(forName: name, object: nil, queue: queue, using: block)
    }

    /// `removeObserver(_:)`.
    public func stopObserving(_ token: any NSObjectProtocol) {
        removeObserver(token)
    }

    /// `post(name:object:)`.
    public func postNotification(_ name: Notification.Name, object: Any?) {
        post(name: name, object: object)
    }
}
