import POIApp
import Testing

/// The launch shortcut (WWDC 2018 session 417, "Test execution speed"): optional start-up work is skipped when a
/// test runner launches the app with `IS_UNIT_TESTING=1`.
@Suite("AppLaunch")
struct AppLaunchTests {
    @Test(
        "Optional work is skipped only when IS_UNIT_TESTING is 1",
        arguments: [
            ([:], true),
            (["IS_UNIT_TESTING": "1"], false),
            (["IS_UNIT_TESTING": "0"], true),
            (["IS_UNIT_TESTING": "yes"], true),
            (["OTHER": "1"], true),
        ] as [([String: String], Bool)]
    )
    func optionalWork(environment: [String: String], runsOptionalWork: Bool) async {
        let launch = AppLaunch(environment: environment)
        await confirmation("essential work runs", expectedCount: 1) { essential in
            await confirmation("optional work runs", expectedCount: runsOptionalWork ? 1 : 0) { optional in
                let ran = launch.finishLaunching(essential: { essential() }, optional: { optional() })
                #expect(ran == runsOptionalWork)
            }
        }
        #expect(launch.isUnitTesting == !runsOptionalWork)
    }

    @Test("An error in essential work stops the launch before the optional work")
    func essentialError() {
        struct Broken: Error {}
        var optionalRan = false
        #expect(throws: Broken.self) {
            try AppLaunch(environment: [:]).finishLaunching(
                essential: { throw Broken() }, optional: { optionalRan = true })
        }
        #expect(!optionalRan)
    }
}
