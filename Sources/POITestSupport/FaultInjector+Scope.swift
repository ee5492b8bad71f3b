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
