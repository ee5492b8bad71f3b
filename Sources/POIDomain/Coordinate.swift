/// A position on Earth in degrees, the stand-in for CoreLocation's `CLLocationCoordinate2D` on Linux.
///
/// The talk (WWDC 2018 session 417) builds requests from a `CLLocationCoordinate2D`; CoreLocation does not
/// exist on Linux, so the package uses this value type with the same `init(latitude:longitude:)`.
/// `isValid` plays the part of `CLLocationCoordinate2DIsValid`.
public struct Coordinate: Hashable, Sendable {
    /// Degrees north of the equator, -90...90 when valid.
    public var latitude: Double
    /// Degrees east of Greenwich, -180...180 when valid.
    public var longitude: Double

    /// Creates a coordinate; it is not checked here, call `validate()` or read `isValid`.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both values are finite and inside their ranges (the boundaries are valid).
    public var isValid: Bool {
        (try? validate()) != nil
    }

    /// Throws a `CoordinateError` that says which value is wrong, or returns when the coordinate is valid.
    ///
    /// NaN is no number at all; an infinity is a number outside the range, as 91 is: it is what a numeral past a
    /// `Double` reads as (`--lat 1e400`, `Numeral.double(_:)`), and the person who wrote it gave a latitude too large,
    /// not something other than a number.
    public func validate() throws(CoordinateError) {
        guard !latitude.isNaN else { throw .latitudeNotFinite(latitude) }
        guard !longitude.isNaN else { throw .longitudeNotFinite(longitude) }
        guard (-90.0...90.0).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard (-180.0...180.0).contains(longitude) else { throw .longitudeOutOfRange(longitude) }
    }
}

extension Coordinate: CustomStringConvertible {
    /// The coordinate as `latitude, longitude`, for messages.
    public var description: String {
        "\(latitude), \(longitude)"
    }
}

extension Coordinate: Codable {
    private enum CodingKeys: String, CodingKey {
        case latitude
        case longitude
    }

    /// Decodes `{"latitude": …, "longitude": …}` and rejects an invalid coordinate with a message that names it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            latitude: try container.decode(Double.self, forKey: .latitude),
            longitude: try container.decode(Double.self, forKey: .longitude)
        )
        do {
            try validate()
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description)
            )
        }
    }
}
