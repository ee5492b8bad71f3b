import Foundation
import POIDomain
import POILocation
import PortableTestSupport
import Testing

/// Exercise `write-fetcher-test` (protocols, chapters 7 and 8): write your test here.
///
/// `scripts/workshop list` gives the task, `scripts/workshop check write-fetcher-test` judges this file (your test must pass
/// on the code as it is and fail on each of the exercise's hidden mistakes), `scripts/workshop hint write-fetcher-test` gives one
/// hint at a time. Keep the suite's name; an XCTest class of the same name, skipped unless `POI_WORKSHOP` names
/// the exercise, counts as well.
///
/// What you need, in POILocation and POIDomain (chapters 7 and 8 show them at work):
///
///     protocol LocationFetcher {                      // your mock: a final class, so the provider's delegate sticks
///         var locationFetcherDelegate: (any LocationFetcherDelegate)? { get set }
///         var desiredAccuracy: LocationAccuracy { get set }
///         func requestLocation()                      // answer here: delegate?.locationFetcher(self, didUpdateLocations: [...])
///     }
///     CurrentLocationProvider(locationFetcher: YourMock(...)).checkCurrentLocation { isPointOfInterest in ... }
///
/// The initializer takes the fetcher as `sending`: make the mock in the call, as above. To keep a reference to it
/// (to count its calls), declare it `final class YourMock: LocationFetcher, @unchecked Sendable` (a test's mock, used
/// from one task at a time); without that, using it after the call does not compile.
///
/// Swift 6: the completion is `@Sendable`, so it cannot write to a `var` of your test. Check the value inside it
/// (`#expect(isPointOfInterest)`, with `confirmation` to know it ran), or take it out with a continuation, its wait
/// bounded (a mistake that never calls the completion must fail your test, not hang it: the checker turns a hang down):
///
///     let answer = try await withBoundedWait(.seconds(2)) {   // PortableTestSupport, imported here
///         await withCheckedContinuation { done in provider.checkCurrentLocation { done.resume(returning: $0) } }
///     }
///
/// In XCTest, replace the suite with:
///
///     final class WriteFetcherTests: XCTestCase {    // import XCTest
///         func testAnswers() async throws {
///             try XCTSkipUnless(WorkshopSwitch.isOn("write-fetcher-test"), "run 'scripts/workshop check write-fetcher-test'")
///             // Your test: XCTAssertTrue / XCTAssertFalse instead of #expect.
///         }
///     }
@Suite(.enabled(if: WorkshopSwitch.isOn("write-fetcher-test"), WorkshopSwitch.reason("write-fetcher-test")))
struct WriteFetcherTests {
    @Test func yourTest() async throws {
        // Your test.
    }
}
