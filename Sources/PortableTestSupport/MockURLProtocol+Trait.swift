public import Testing

extension MockURLProtocol {
    /// A test trait that gives each test, and each case of a parameterized test, a stub of its own: the scoping
    /// trait form of `withStub(_:onCancel:_:)`.
    ///
    /// `@Test(.stubbed { request in … })` runs the test inside `withStub`; the test finds its stub as
    /// `MockURLProtocol.Stub.current`. On a suite it applies to every test in it. Setting up and tearing down move
    /// out of the test body, as `setUp()` and `tearDown()` do in XCTest, but per test case and safe in parallel.
    public struct StubTrait: TestTrait, SuiteTrait, TestScoping {
        let handler: RequestHandler

        /// Applies to every test of a suite it is given to.
        public var isRecursive: Bool { true }

        /// Runs the test with a stub of its own as `Stub.current`, unregistered when the test ends.
        ///
        /// What the test throws (a cancellation's `CancellationError` included) comes through as it is, after the
        /// stub was unregistered; `Stub.current` is then `nil` again.
        public func provideScope(
            for test: Test,
            testCase: Test.Case?,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            try await MockURLProtocol.withStub(handler) { stub in
                try await Stub.$current.withValue(stub) {
                    try await function()
                }
            }
        }
    }
}

extension MockURLProtocol.Stub {
    /// The stub a `.stubbed` trait made for the running test, or `nil` outside one.
    @TaskLocal public static var current: MockURLProtocol.Stub?
}

extension Trait where Self == MockURLProtocol.StubTrait {
    /// A stub of the test's own whose requests `handler` answers; see `MockURLProtocol.StubTrait`.
    public static func stubbed(_ handler: @escaping MockURLProtocol.RequestHandler) -> Self {
        Self(handler: handler)
    }
}
