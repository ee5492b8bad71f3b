/// A place and how far it is from a position, when both are known: one line of "the places near me".
public struct NearbyPlace: Hashable, Sendable {
    /// The place.
    public let place: PointOfInterest
    /// How far it is from the position; `nil` when either has no position.
    public let distance: Distance?

    /// Pairs `place` with its `distance`.
    public init(place: PointOfInterest, distance: Distance?) {
        self.place = place
        self.distance = distance
    }
}

extension Sequence<PointOfInterest> {
    /// The places nearest first from `position`: the one ordering the server, the location provider and the
    /// list model share.
    ///
    /// Places with a distance come first, nearer before farther; two at the same distance are ordered by name.
    /// Places without a distance (no position of their own, or no `position` given) follow, by name. Places
    /// equal in both keep their order in the sequence.
    public func nearestFirst(from position: Coordinate?) -> [NearbyPlace] {
        enumerated()
            .map {
                (
                    index: $0.offset,
                    nearby: NearbyPlace(place: $0.element, distance: position.flatMap($0.element.distance(from:)))
                )
            }
            .sorted { left, right in
                switch (left.nearby.distance, right.nearby.distance) {
                case (let l?, let r?) where l != r: return l < r
                case (.some, nil): return true
                case (nil, .some): return false
                default:
                    guard left.nearby.place.name != right.nearby.place.name else { return left.index < right.index }
                    return left.nearby.place.name < right.nearby.place.name
                }
            }
            .map(\.nearby)
    }
}
