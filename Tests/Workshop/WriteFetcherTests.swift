import Foundation
import POIDomain
import POILocation
import Testing

/// Exercise `write-fetcher-test` (protocols, chapters 7 and 8): write your test here.
///
/// `scripts/workshop list` gives the task, `scripts/workshop check write-fetcher-test` judges this file (your test must pass
/// on the code as it is and fail on each of the exercise's hidden mistakes), `scripts/workshop hint write-fetcher-test` gives one
/// hint at a time. Keep the suite's name; an XCTest class of the same name, skipped unless `POI_WORKSHOP` names
/// the exercise, counts as well.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-fetcher-test"), WorkshopSwitch.reason("write-fetcher-test")))
struct WriteFetcherTests {
    @Test func yourTest() async throws {
        // Your test.
    }
}
