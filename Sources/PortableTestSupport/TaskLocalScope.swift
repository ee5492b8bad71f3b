public import Testing

/// A test trait that runs each test, and each case of a parameterized test, with a new value in a task-local: the
/// scoping trait behind `.isolatedNotificationCenter` and `.manualClock`.
///
/// The test reads the value from the task-local (`IsolatedNotificationCenter.current`, `ManualClock.current`); code
/// that is not inside such a test sees `nil`. On a suite the trait applies to every test in it.
public struct TaskLocalScope<Value: Sendable>: TestTrait, SuiteTrait, TestScoping {
    let local: TaskLocal<Value?>
    let makeValue: @Sendable () -> Value

    /// A trait that binds `local` to a new `makeValue()` for each test.
    public init(_ local: TaskLocal<Value?>, _ makeValue: @escaping @Sendable () -> Value) {
        self.local = local
        self.makeValue = makeValue
    }

    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }

    /// Runs the test with a new value bound to the task-local.
    ///
    /// What the test throws (a cancellation's `CancellationError` included) comes through as it is, and the
    /// task-local is unbound again.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await local.withValue(makeValue()) {
            try await function()
        }
    }
}
