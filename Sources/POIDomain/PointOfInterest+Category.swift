extension PointOfInterest {
    /// The kind of a place, an open set: a category this version does not know still decodes.
    public struct Category: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringLiteral {
        /// The category as the server spells it, for example `"museum"`.
        public var rawValue: String

        /// Creates the category the server spells `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a category from a string literal, as in `let category: Category = "museum"`.
        public init(stringLiteral value: String) {
            self.init(rawValue: value)
        }

        /// Decodes the category from a bare string.
        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
        }

        /// Encodes the category as a bare string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// A museum or gallery.
        public static let museum: Category = "museum"
        /// A park, garden or square.
        public static let park: Category = "park"
        /// A place to eat or drink.
        public static let restaurant: Category = "restaurant"
        /// A building or monument worth seeing.
        public static let landmark: Category = "landmark"
        /// A theatre, arena or venue.
        public static let venue: Category = "venue"
    }
}
