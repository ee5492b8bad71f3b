import Foundation
import POIDomain
import POINetworking
import PortableTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Exercise `write-loader-test` (network, chapter 3): write your test here.
///
/// `scripts/workshop list` gives the task, `scripts/workshop check write-loader-test` judges this file (your test must pass
/// on the code as it is and fail on each of the exercise's hidden mistakes), `scripts/workshop hint write-loader-test` gives one
/// hint at a time. Keep the suite's name; an XCTest class of the same name, skipped unless `POI_WORKSHOP` names
/// the exercise, counts as well.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-loader-test"), WorkshopSwitch.reason("write-loader-test")))
struct WriteLoaderTests {
    @Test func yourTest() async throws {
        // Your test.
    }
}
