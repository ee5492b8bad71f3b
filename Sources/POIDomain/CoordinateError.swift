/// Why a `Coordinate` is not a position on Earth.
public enum CoordinateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The latitude is NaN, no number at all (`Coordinate.validate()` finds an infinite one out of range).
    case latitudeNotFinite(Double)
    /// The longitude is NaN, no number at all (`Coordinate.validate()` finds an infinite one out of range).
    case longitudeNotFinite(Double)
    /// The latitude is outside -90...90, an infinity included.
    case latitudeOutOfRange(Double)
    /// The longitude is outside -180...180, an infinity included.
    case longitudeOutOfRange(Double)

    /// A sentence that names the wrong value and the accepted range.
    public var description: String {
        switch self {
        case .latitudeNotFinite(let value):
            "latitude \(value) is not a finite number"
        case .longitudeNotFinite(let value):
            "longitude \(value) is not a finite number"
        case .latitudeOutOfRange(let value):
            "latitude \(value) is outside -90...90"
        case .longitudeOutOfRange(let value):
            "longitude \(value) is outside -180...180"
        }
    }

    /// The message every layer shows for an invalid coordinate: `invalid coordinate: latitude 91.0 is outside -90...90`.
    public var message: String {
        "invalid coordinate: \(description)"
    }
}
