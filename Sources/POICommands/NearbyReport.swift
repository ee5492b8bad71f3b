public import POIDomain

/// The output of `poi nearby --json`: one stable schema, docs/api/nearby-report.schema.json.
///
/// `{"position": {"latitude": …, "longitude": …}, "places": [{"name": …, "category": … or null,
/// "coordinate": {…} or null, "distanceMeters": … or null, "distance": "350 m" or null}]}`, places nearest first.
public struct NearbyReport: Codable, Equatable, Sendable {
    /// One place in the report.
    public struct Place: Codable, Equatable, Sendable {
        /// The place's name.
        public var name: String
        /// Its category, when the server gave one.
        public var category: String?
        /// Its position, when the server gave one.
        public var coordinate: Coordinate?
        /// How far it is, in metres, rounded to the metre.
        public var distanceMeters: Double?
        /// How far it is, as the text output shows it.
        public var distance: String?

        private enum CodingKeys: String, CodingKey {
            case name, category, coordinate, distanceMeters, distance
        }

        /// Encodes absent values as `null`, so that every key is always present.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(category, forKey: .category)
            try container.encode(coordinate, forKey: .coordinate)
            try container.encode(distanceMeters, forKey: .distanceMeters)
            try container.encode(distance, forKey: .distance)
        }
    }

    /// Where the distances are measured from.
    public var position: Coordinate
    /// The places, nearest first.
    public var places: [Place]

    /// Builds the report from the places near `position`, in their order.
    public init(position: Coordinate, rows: [NearbyPlace]) {
        self.position = position
        self.places = rows.map { row in
            Place(
                name: row.place.name,
                category: row.place.category?.rawValue,
                coordinate: row.place.coordinate,
                distanceMeters: row.distance.map { ($0.meters).rounded() },
                distance: row.distance?.description
            )
        }
    }

    /// The text output: a heading, then one line a place with its distance right-aligned.
    public var text: String {
        var lines = ["Places near \(position), nearest first:"]
        let width = places.map { ($0.distance ?? "?").count }.max() ?? 1
        for place in places {
            let distance = place.distance ?? "?"
            let padding = String(repeating: " ", count: width - distance.count)
            let category = place.category.map { "  (\($0))" } ?? ""
            lines.append("  \(padding)\(distance)  \(place.name)\(category)")
        }
        if places.isEmpty {
            lines.append("  (no places)")
        }
        return lines.joined(separator: "\n")
    }
}
