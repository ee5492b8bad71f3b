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
    /// decimal ("1.2 km", "99.5 km"); from 100 km on, in whole kilometres without separators ("3936 km"), however many:
    /// `Double.greatestFiniteMagnitude` metres read as all 306 digits of their kilometres. Negative zero reads "0 m".
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
        return "\(Self.digits((meters / 1000).rounded())) km"
    }

    /// A whole, non-negative number written out in decimal digits, however large.
    ///
    /// `Int` holds it up to `Int.max`, about 9.2e18: `Int(_:)` would trap past it, and `Double`'s own description
    /// turns to an exponent ("1e+22"). Past it, `number` is `significand` × 2^`shift` (every `Double` from 2^53 on is a
    /// whole number), doubled `shift` times in base 10^9, so that every digit is the number's own.
    static func digits(_ number: Double) -> String {
        if let whole = Int(exactly: number) { return String(whole) }
        let base: UInt64 = 1_000_000_000
        var significand = number.significandBitPattern | (1 << UInt64(Double.significandBitCount))
        // The number in base 10^9, its least significant limb first.
        var limbs: [UInt64] = []
        while significand > 0 {
            limbs.append(significand % base)
            significand /= base
        }
        for _ in 0..<(Int(number.exponent) - Double.significandBitCount) {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let doubled = limbs[index] * 2 + carry
                limbs[index] = doubled % base
                carry = doubled / base
            }
            if carry > 0 { limbs.append(carry) }
        }
        let lower = limbs.dropLast().reversed().map { limb in
            let text = String(limb)
            return String(repeating: "0", count: 9 - text.count) + text
        }
        return String(limbs[limbs.count - 1]) + lower.joined()
    }
}
