import Foundation
import POIDomain
import POINetworking
import Testing

/// Exercise `rating` (chapter 2, decomposing network code).
///
/// The server sends each place's rating, and the app must keep it. Parsing is a pure function, so this is a unit
/// test: no network. One test, so that it fails before the exercise is done: a place without a rating parses today,
/// and a solution must keep it so.
@Suite("Exercise: rating", .enabled(if: WorkshopSwitch.isOn("rating"), WorkshopSwitch.reason("rating")))
struct RatingExerciseTests {
    @Test("A rating in the server's answer survives parsing and encoding; a place without one still parses as before")
    func ratingIsKept() throws {
        let places = try PointsOfInterestRequest().parseResponse(
            data: Data(#"[{"name": "SAP Center", "rating": 4.5}]"#.utf8))
        let encoded = String(decoding: try JSONEncoder().encode(places), as: UTF8.self)
        #expect(encoded.contains(#""rating":4.5"#), "\(encoded)")

        let unrated = try PointsOfInterestRequest().parseResponse(data: Data(#"[{"name": "My Location"}]"#.utf8))
        #expect(unrated == [PointOfInterest(name: "My Location")], "without a rating it equals PointOfInterest(name:)")
    }
}
