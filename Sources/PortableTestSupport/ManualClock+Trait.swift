public import Testing

extension ManualClock {
    /// The running test's clock, or `nil` outside a test with the `.manualClock` trait.
    @TaskLocal public static var current: ManualClock?
}

extension Trait where Self == TaskLocalScope<ManualClock> {
    /// A `ManualClock` of the test's own at its zero instant, as `ManualClock.current`.
    public static var manualClock: Self {
        Self(ManualClock.$current) { ManualClock() }
    }
}
