import Foundation
import POIDomain
import POINetworking
import Testing

/// Exercise `rating` (chapter 2, decomposing network code).
///
/// the server sends each place's rating, 0 to 5, and the app
/// must keep it. Parsing is a pure function, so these are unit tests: no network.
@Suite("Exercise: rating", .enabled(if: WorkshopSwitch.isOn("rating"), WorkshopSwitch.reason("rating")))
struct RatingExerciseTests {
    @Test("A rating in the server's answer survives parsing and encoding")
    func ratingIsKept() throws {
        let places = try PointsOfInterestRequest().parseResponse(
            data: Data(#"[{"name": "SAP Center", "rating": 4.5}]"#.utf8))
        let encoded = String(decoding: try JSONEncoder().encode(places), as: UTF8.self)
        #expect(encoded.contains(#""rating":4.5"#), "\(encoded)")
    }

    @Test("A place without a rating still parses, and equals one made with PointOfInterest(name:)")
    func ratingIsOptional() throws {
        let places = try PointsOfInterestRequest().parseResponse(data: Data(#"[{"name": "My Location"}]"#.utf8))
        #expect(places == [PointOfInterest(name: "My Location")])
    }
}
