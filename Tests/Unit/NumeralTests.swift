import POIDomain
import Testing

/// Numerals as the programs read them: what is a decimal numeral and what is not, and a numeral's value beyond
/// `Double` and `Int`, read at the type's edge instead of refused.
@Suite("Numeral")
struct NumeralTests {
    @Test(
        "A decimal numeral is read as the nearest Double: ±infinity past the largest, ±0 under the least",
        arguments: [
            ("37.3293", 37.3293),
            ("-121.8893", -121.8893),
            ("+5", 5),
            (".5", 0.5),
            ("5.", 5),
            ("007", 7),
            ("2E-3", 0.002),
            ("1e+308", 1e308),
            ("-0", -0.0),
            ("1e400", .infinity),
            ("-1e400", -.infinity),
            (String(repeating: "9", count: 400), .infinity),
            ("1e-400", 0),
            ("456529149269160342363045888", 456_529_149_269_160_342_363_045_888),
        ] as [(String, Double)]
    )
    func double(text: String, value: Double) {
        #expect(Numeral.double(text) == value)
        #expect(Numeral.double(text)?.sign == value.sign, "the sign is kept, -0 and -1e400 included")
    }

    @Test(
        "What Double(_:) reads and is no decimal numeral is nil: words, infinities, NaN, hexadecimal, blanks",
        arguments: [
            "", "inf", "-infinity", "nan", "0x10", "0x1p3", " 1", "1 ", "1e", "e5", ".", "-", "+-1", "1,5", "١",
        ]
    )
    func notANumeral(text: String) {
        #expect(Numeral.double(text) == nil)
        #expect(!Numeral.isPositive(text))
    }

    @Test(
        "Positive is more than 0 however small, 1e-400 included; 0 in any form and negatives are not",
        arguments: [
            ("1e-400", true), ("5e-324", true), ("0.0001", true), ("+3", true), ("1e400", true), ("0.000e-5", false),
            ("0", false), ("-0", false), ("00.00", false), ("0e5", false), ("-1e-400", false), ("-3", false),
        ]
    )
    func positive(text: String, isPositive: Bool) {
        #expect(Numeral.isPositive(text) == isPositive)
    }

    @Test(
        "A whole number in digits, of any size, is clamped to Int's range; anything else is nil",
        arguments: [
            ("12", 12), ("+3", 3), ("-0", 0), ("007", 7), ("9223372036854775807", .max),
            ("9223372036854775808", .max), ("18446744073709551616", .max), ("456529149269160342363045888", .max),
            ("-9223372036854775808", .min), ("-9223372036854775809", .min),
            (String(repeating: "0", count: 30) + "1", 1),
            ("1.0", nil), ("1e3", nil), ("", nil), ("+", nil), ("-", nil), (" 1", nil), ("1_000", nil), ("٣", nil),
        ] as [(String, Int?)]
    )
    func wholeNumber(text: String, value: Int?) {
        #expect(Numeral.wholeNumber(text) == value)
    }
}
