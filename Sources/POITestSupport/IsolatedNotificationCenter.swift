public import Foundation
public import Testing

/// A test trait that gives each test a `NotificationCenter` of its own: the talk's isolated center, set up by the
/// trait instead of by each test.
///
/// `@Test(.isolatedNotificationCenter)` runs the test with a new center as `IsolatedNotificationCenter.current`;
/// the test passes it to the code under test (the talk's dependency injection) and posts or observes there, never
/// on `.default`, which every test running in parallel shares.
public struct IsolatedNotificationCenter: TestTrait, SuiteTrait, TestScoping {
    /// The running test's center, or `nil` outside a test with the trait.
    @TaskLocal public static var current: NotificationCenter?

    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }

    /// Runs the test with a new center as `current`.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Self.$current.withValue(NotificationCenter()) {
            try await function()
        }
    }
}

extension Trait where Self == IsolatedNotificationCenter {
    /// A `NotificationCenter` of the test's own; see `IsolatedNotificationCenter`.
    public static var isolatedNotificationCenter: Self { Self() }
}
