import Foundation
import POICommands
import POIDomain
import Testing

/// `poi nearby --json`'s report as it is encoded: the schema in docs/api is the promise its readers rely on.
@Suite("NearbyReport, encoded")
struct NearbyReportTests {
    static let position = Coordinate(latitude: 37.3293, longitude: -121.8893)

    /// A report of one place the server told nothing about but its name, and one it told everything about.
    static let report = NearbyReport(
        position: position,
        rows: [
            PointOfInterest(
                name: "Near", coordinate: Coordinate(latitude: 37.33, longitude: -121.8893), category: .park),
            PointOfInterest(name: "Somewhere"),
        ].nearestFirst(from: position)
    )

    static func encoded(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    @Test("A place with only a name keeps every key, each absent value null")
    func absentValuesAreNull() throws {
        let place = try #require(Self.report.places.last)
        #expect(place.name == "Somewhere")
        #expect(
            String(decoding: try Self.encoded(place), as: UTF8.self)
                == #"{"category":null,"coordinate":null,"distance":null,"distanceMeters":null,"name":"Somewhere"}"#)
    }

    @Test("A place's distance in metres is rounded to the metre (its text, \"80 m\", is rounded for reading)")
    func distanceInWholeMetres() throws {
        let place = try #require(Self.report.places.first)
        let meters = Self.position.distance(to: Coordinate(latitude: 37.33, longitude: -121.8893)).meters
        #expect(meters != meters.rounded(), "the data must offer a fraction to round: \(meters)")
        #expect(place.distanceMeters == meters.rounded())
        #expect(place.distanceMeters == 78)
        #expect(place.distance == "80 m")
    }

    // The schema is read from docs/api, not copied here: a key it adds or renames is a key this test asks for.
    @Test("The report has exactly the keys docs/api/nearby-report.schema.json names, every required one present")
    func keysOfTheSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let schemaFile = root.appendingPathComponent("docs/api/nearby-report.schema.json")
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: schemaFile)) as? [String: Any])
        let placeSchema = try #require((schema["properties"] as? [String: Any])?["places"] as? [String: Any])
        let itemSchema = try #require(placeSchema["items"] as? [String: Any])

        let report = try #require(
            try JSONSerialization.jsonObject(with: Self.encoded(Self.report)) as? [String: Any])
        try Self.expectKeys(of: report, match: schema)
        let places = try #require(report["places"] as? [[String: Any]])
        #expect(places.count == 2)
        for place in places {
            try Self.expectKeys(of: place, match: itemSchema)
        }
        #expect(places.last?["name"] as? String == "Somewhere")
        #expect(places.last?["distanceMeters"] is NSNull)
    }

    /// Every key `schema` requires is in `object`, and `object` has no key `schema` does not name (the schema
    /// allows no other).
    static func expectKeys(
        of object: [String: Any], match schema: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let required = Set(try #require(schema["required"] as? [String], sourceLocation: sourceLocation))
        let named = Set(try #require((schema["properties"] as? [String: Any])?.keys, sourceLocation: sourceLocation))
        #expect(required.isSubset(of: Set(object.keys)), "missing: \(required.subtracting(object.keys))")
        #expect(Set(object.keys).isSubset(of: named), "not in the schema: \(Set(object.keys).subtracting(named))")
    }
}
