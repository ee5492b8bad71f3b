public import Foundation

/// Start-up of the app, which skips the work tests do not need: the talk's launch shortcut.
///
/// WWDC 2018 session 417, "Test execution speed": tests start only after the app has launched, so slow start-up
/// work (warming caches, printing tips, anything optional) is skipped when the environment has
/// `IS_UNIT_TESTING=1`. Only work that tests truly do not need may be skipped.
public struct AppLaunch: Sendable {
    /// The environment variable that marks a launch by a test runner.
    public static let unitTestingVariable = "IS_UNIT_TESTING"

    /// The environment the app was launched with.
    public let environment: [String: String]

    /// Reads the launch environment, by default the process's own.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Whether a test runner launched the app: `IS_UNIT_TESTING` is `1`.
    public var isUnitTesting: Bool {
        environment[Self.unitTestingVariable] == "1"
    }

    /// Runs `essential` always and `optional` unless a test runner launched the app; returns whether
    /// `optional` ran.
    @discardableResult
    public func finishLaunching(essential: () throws -> Void, optional: () throws -> Void) rethrows -> Bool {
        try essential()
        return try performOptionalWork(optional)
    }

    /// Runs `work` unless a test runner launched the app; returns whether it ran.
    @discardableResult
    public func performOptionalWork(_ work: () throws -> Void) rethrows -> Bool {
        guard !isUnitTesting else { return false }
        try work()
        return true
    }
}
