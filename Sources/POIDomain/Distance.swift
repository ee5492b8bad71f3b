/// A length along the Earth's surface, in metres, with the app's human formatting ("350 m", "1.2 km").
public struct Distance: Hashable, Comparable, Sendable {
    /// The length in metres.
    public var meters: Double

    /// Creates a distance of `meters` metres.
    public init(meters: Double) {
        self.meters = meters
    }

    /// Orders distances by length.
    public static func < (lhs: Distance, rhs: Distance) -> Bool {
        lhs.meters < rhs.meters
    }
}

extension Distance: CustomStringConvertible {
    /// The distance as a person reads it, the same in every locale.
    ///
    /// Under a kilometre it is rounded to 10 m ("350 m", "0 m"); under 100 km it is shown in kilometres with one
    /// decimal ("1.2 km", "99.5 km"); from 100 km on, in whole kilometres without separators ("3936 km").
    /// A length that is not a finite, non-negative number is shown as "unknown distance".
    public var description: String {
        guard meters.isFinite, meters >= 0 else { return "unknown distance" }
        let tensOfMeters = (meters / 10).rounded()
        if tensOfMeters < 100 {
            return "\(Int(tensOfMeters) * 10) m"
        }
        let tenthsOfKilometers = (meters / 100).rounded()
        if tenthsOfKilometers < 1000 {
            let tenths = Int(tenthsOfKilometers)
            return "\(tenths / 10).\(tenths % 10) km"
        }
        return "\(Int((meters / 1000).rounded())) km"
    }
}
