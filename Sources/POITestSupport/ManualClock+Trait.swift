public import Testing

extension ManualClock {
    /// A test trait that gives each test a `ManualClock` of its own, as `ManualClock.current`.
    public struct Scope: TestTrait, SuiteTrait, TestScoping {
        /// Applies to every test of a suite it is given to.
        public var isRecursive: Bool { true }

        /// Runs the test with a new clock at its zero instant as `current`.
        public func provideScope(
            for test: Test,
            testCase: Test.Case?,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            try await ManualClock.$current.withValue(ManualClock()) {
                try await function()
            }
        }
    }

    /// The running test's clock, or `nil` outside a test with the `.manualClock` trait.
    @TaskLocal public static var current: ManualClock?
}

extension Trait where Self == ManualClock.Scope {
    /// A manual clock of the test's own; see `ManualClock.Scope`.
    public static var manualClock: Self { Self() }
}
