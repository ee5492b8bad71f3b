public import PortableTestSupport
public import Testing

extension FaultInjector {
    /// The injector of the test running now, bound by the `.injecting(_:)` trait; `nil` elsewhere.
    @TaskLocal public static var current: FaultInjector?
}

/// Runs `body` with an injector of `rules`, for XCTest and Swift Testing alike.
///
/// `body` gives `injector.faults` to the sockets under test. The injector is the test's own, so tests that use it
/// run in parallel.
///
/// When `body` throws, its error reaches the caller as it is and the injector is no longer `FaultInjector.current`:
/// nothing of it stays installed, and the next call has a new injector, its counts at zero. It does not look at
/// cancellation itself: a cancelled task's `body` sees it (`Task.isCancelled`, a wait that ends), and what `body` then
/// throws, a `CancellationError`, reaches the caller the same way.
public func withFaults<T>(
    _ rules: FaultInjector.Rule..., body: (FaultInjector) async throws -> T
) async rethrows -> T {
    let injector = FaultInjector(rules: rules)
    return try await FaultInjector.$current.withValue(injector) { try await body(injector) }
}

extension Trait where Self == TaskLocalScope<FaultInjector> {
    /// Gives each test a new injector of `rules` as `FaultInjector.current`, whose `faults` the test hands to the
    /// sockets under test.
    public static func injecting(_ rules: FaultInjector.Rule...) -> Self {
        TaskLocalScope(FaultInjector.$current) { FaultInjector(rules: rules) }
    }
}
