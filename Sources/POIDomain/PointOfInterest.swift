/// A place worth seeing: what the server lists and the app shows.
///
/// Only the name is required. The talk's server sends places with a name alone (`[{"name":"My Location"}]`),
/// so the position and the category are optional: a place without a position can be listed, but has no distance.
public struct PointOfInterest: Hashable, Codable, Sendable {
    /// The name shown to the user.
    public var name: String
    /// Where the place is, when the server says.
    public var coordinate: Coordinate?
    /// What kind of place it is, when the server says.
    public var category: Category?

    /// Creates a place; the talk's `PointOfInterest(name:)` call sites stay valid.
    public init(name: String, coordinate: Coordinate? = nil, category: Category? = nil) {
        self.name = name
        self.coordinate = coordinate
        self.category = category
    }

    /// The distance from `position` to this place, or `nil` when the place has no position.
    public func distance(from position: Coordinate) -> Distance? {
        coordinate.map { position.distance(to: $0) }
    }
}
