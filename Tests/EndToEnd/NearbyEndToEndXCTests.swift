import POITestSupport
import PortableTestSupport
import XCTest

/// The XCTest twin of the end-to-end suites: the built `poi` as a process, its output and its exit status.
final class NearbyEndToEndXCTests: XCTestCase {
    /// `poi` as the user runs it: the built executable, launched.
    static let poi = ProgramUnderTest.poi(.launched)

    func testNearbyListsTheConventionCenterFirst() async throws {
        let result = try await Self.poi.run(["nearby", "--lat", "37.3293", "--long", "-121.8893", "--limit", "1"])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(
            result.standardOutput,
            "Places near 37.3293, -121.8893, nearest first:\n  40 m  San Jose McEnery Convention Center  (venue)\n"
        )
    }

    func testInvalidCoordinateExitsWith65() async throws {
        let result = try await Self.poi.run(["nearby", "--lat", "-90.5", "--long", "0"])
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(
            result.standardError,
            "poi: invalid coordinate: latitude -90.5 is outside -90...90\n"
        )
    }
}
