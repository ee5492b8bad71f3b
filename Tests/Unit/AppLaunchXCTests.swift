import POIApp
import XCTest

/// The XCTest twin of `AppLaunchTests`: the launch shortcut skips optional work under `IS_UNIT_TESTING=1`.
final class AppLaunchXCTests: XCTestCase {
    func testOptionalWorkIsSkippedWhenUnitTesting() {
        var ran: [String] = []
        let didRunOptional = AppLaunch(environment: ["IS_UNIT_TESTING": "1"]).finishLaunching(
            essential: { ran.append("essential") },
            optional: { ran.append("optional") }
        )
        XCTAssertFalse(didRunOptional)
        XCTAssertEqual(ran, ["essential"])
    }

    func testOptionalWorkRunsOnANormalLaunch() {
        var ran: [String] = []
        let didRunOptional = AppLaunch(environment: [:]).finishLaunching(
            essential: { ran.append("essential") },
            optional: { ran.append("optional") }
        )
        XCTAssertTrue(didRunOptional)
        XCTAssertEqual(ran, ["essential", "optional"])
    }
}
