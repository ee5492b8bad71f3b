import POIApp
import POIDomain
import Testing

/// `FeaturedPlaceManager`'s precondition, which stops the program: shown by an exit test, which runs the body in a
/// child process, so it lives in the tier that launches processes (the unit tier starts none).
@Suite("FeaturedPlaceManager, stopping the program", .timeLimit(.minutes(1)))
struct FeaturedPlaceManagerIntegrationTests {
    @Test("A manager with no place to feature stops the program, saying why: its precondition, shown by an exit test")
    func noPlaces() async {
        // The body runs in a child process; a failed precondition there is a crash the parent observes.
        let ended = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FeaturedPlaceManager(places: [])
        }
        let said = String(decoding: ended?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("FeaturedPlaceManager needs at least one place"), "\(said)")
    }
}
