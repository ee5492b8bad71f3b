import Foundation
import POIApp
import POIDomain
import PortableTestSupport
import Testing

/// The list model's position and places across updates.
///
/// State that changes over time is tested across the change: set, reset, the same value again. docs/inputs.md lists
/// the cases (scripts/tool inputs).
@Suite("The list model's updates, by class and across the change")
struct PointsOfInterestListModelInputTests {
    static let zulu = PointOfInterest(name: "Zulu", coordinate: Coordinate(latitude: 0, longitude: 0.001))
    static let alpha = PointOfInterest(name: "Alpha", coordinate: Coordinate(latitude: 0, longitude: 0.01))
    static let unplaced = PointOfInterest(name: "Middle")
    static let places = [alpha, unplaced, zulu]
    static let origin = Coordinate(latitude: 0, longitude: 0)
    /// Nearer Alpha than Zulu.
    static let east = Coordinate(latitude: 0, longitude: 0.011)

    /// One update, and the rows (names with a distance in metres, rounded, or none) it must give.
    struct Update: Sendable {
        var places: [PointOfInterest]
        var position: Coordinate?
        var rows: [String]
    }

    static func sequence(_ kind: InputCase<[Update]>.Kind, _ label: String, _ updates: [Update])
        -> InputCase<[Update]>
    {
        InputCase("PointsOfInterestListModel.update", kind, label, value: updates)
    }

    static let fromOrigin = Update(places: places, position: origin, rows: ["Zulu 111", "Alpha 1112", "Middle -"])
    static let fromEast = Update(places: places, position: east, rows: ["Alpha 111", "Zulu 1112", "Middle -"])
    static let noPosition = Update(places: places, position: nil, rows: ["Alpha -", "Middle -", "Zulu -"])

    static let cases = [
        sequence(.valid, "a position: nearest first, with distances", [fromOrigin]),
        sequence(.empty, "no places", [Update(places: [], position: origin, rows: [])]),
        sequence(.empty, "no position: by name, no distances", [noPosition]),
        sequence(.state, "a position, then none: the old one is not kept", [fromOrigin, noPosition]),
        sequence(.state, "a position, then another: ordered from the new one", [fromOrigin, fromEast]),
        sequence(.state, "the same position twice: the same rows", [fromOrigin, fromOrigin]),
        sequence(.state, "none, then a position, then none again", [noPosition, fromEast, noPosition]),
        sequence(
            .state, "places, then none, then the places again",
            [
                fromOrigin, Update(places: [], position: origin, rows: []), fromOrigin,
            ]),
        sequence(
            .huge, "1,000 places, the nearest last",
            [
                Update(
                    places: (1...1000).map {
                        PointOfInterest(
                            name: "P\($0)", coordinate: Coordinate(latitude: 0, longitude: Double(1001 - $0) / 100))
                    }, position: origin, rows: ["P1000 1112"])
            ]),
    ]

    /// A row as `NAME METRES`, rounded, or `NAME -` without a distance.
    static func text(_ row: PointsOfInterestListModel.Row) -> String {
        "\(row.place.name) \(row.distance.map { "\(Int($0.meters.rounded()))" } ?? "-")"
    }

    @Test("Each update gives rows from its own places and position, whatever came before", arguments: cases)
    func updates(_ input: InputCase<[Update]>) {
        let model = PointsOfInterestListModel(notificationCenter: NotificationCenter(), places: [], position: nil)
        for (index, update) in input.value.enumerated() {
            model.update(places: update.places, position: update.position)
            let rows = model.rows.map(Self.text)
            // The huge case checks the first row only: the nearest of a thousand.
            let shown = update.rows.count == 1 && update.places.count > 1 ? Array(rows.prefix(1)) : rows
            #expect(shown == update.rows, "update \(index + 1)")
            #expect(model.reloadCount == index + 2, "one reload per update, after the one at creation")
        }
    }
}
