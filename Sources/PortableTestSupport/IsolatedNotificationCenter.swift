public import Foundation
public import Testing

/// The `.isolatedNotificationCenter` test trait: each test gets a `NotificationCenter` of its own, the talk's
/// isolated center, set up by the trait instead of by each test.
///
/// `@Test(.isolatedNotificationCenter)` runs the test with a new center as `IsolatedNotificationCenter.current`; the
/// test passes it to the code under test (the talk's dependency injection) and posts or observes there, never on
/// `.default`, which every test running in parallel shares.
public enum IsolatedNotificationCenter {
    /// The running test's center, or `nil` outside a test with the trait.
    @TaskLocal public static var current: NotificationCenter?
}

extension Trait where Self == TaskLocalScope<NotificationCenter> {
    /// A `NotificationCenter` of the test's own; see `IsolatedNotificationCenter`.
    public static var isolatedNotificationCenter: Self {
        Self(IsolatedNotificationCenter.$current) { NotificationCenter() }
    }
}
