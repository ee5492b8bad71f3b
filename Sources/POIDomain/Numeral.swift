/// Numbers as the programs read them from text (a query parameter, an option, an environment variable): decimal
/// numerals of any length, whose value may lie beyond what `Double` or `Int` holds.
///
/// `Double(_:)` and `Int(_:)` read more than a decimal numeral, and less. More: `Double("inf")`, `Double("nan")` and
/// `Double("0x10")` are numbers to them, and none is a number in JSON, in the API's contract or in the help. Less: a
/// numeral past the type is infinity to `Double` (`1e400`) or 0 (`1e-400`, a positive number), and nothing to `Int`
/// (`Int("9223372036854775808")` is `nil`), so that a program that leans on them calls 27 digits "not a whole
/// number". These readers keep the two apart: what is not a decimal numeral is `nil`; a numeral beyond the type is
/// read at the type's edge, and the caller says what that edge means for its input (a limit past `Int.max` lists
/// every place; a latitude past `Double` is outside -90...90 like any other past 90).
public enum Numeral {
    /// The value of a decimal numeral, or `nil` when `text` is not one.
    ///
    /// A decimal numeral is an optional sign, digits with an optional point (`37.3293`, `.5`, `5.`) and an optional
    /// exponent (`1e400`, `2E-3`), in ASCII, nothing before or after. Its value is the nearest `Double`: ±infinity for
    /// one past `Double.greatestFiniteMagnitude`, ±0 for one under `Double.leastNonzeroMagnitude` (`isPositive(_:)`
    /// tells such a one from 0). The words `inf` and `nan`, hexadecimal numbers and the empty text are not numerals.
    public static func double(_ text: String) -> Double? {
        guard isDecimal(text) else { return nil }
        return Double(text)
    }

    /// Whether `text` is a decimal numeral (`double(_:)`) for a number more than 0, however small.
    ///
    /// It has no minus sign and a digit other than 0 before its exponent: `1e-400`, which reads as 0, is positive;
    /// `0e5` and `-0` are not.
    public static func isPositive(_ text: String) -> Bool {
        guard isDecimal(text), !text.hasPrefix("-") else { return false }
        return text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }.contains {
            (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0)
        }
    }

    /// The value of a whole number written in ASCII digits with an optional sign (`12`, `+3`, `-0`, `007`, 27
    /// digits), clamped to `Int.min...Int.max`; `nil` for any other text (`1.0`, `1e3`, ` 1`, the empty text).
    ///
    /// Clamped, not refused: a number of 27 digits is a whole number, more than any count the programs keep, and the
    /// caller says what a count that large gives (every place, say) or which bound it passes.
    public static func wholeNumber(_ text: String) -> Int? {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy(isDigit) else { return nil }
        return Int(text) ?? (negative ? .min : .max)
    }

    /// Whether `text` is a decimal numeral: `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`.
    private static func isDecimal(_ text: String) -> Bool {
        var rest = Substring(text).utf8
        func skipSign() {
            if let first = rest.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                rest = rest.dropFirst()
            }
        }
        func skipDigits() -> Int {
            let count = rest.prefix(while: isDigit).count
            rest = rest.dropFirst(count)
            return count
        }
        skipSign()
        var mantissaDigits = skipDigits()
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            mantissaDigits += skipDigits()
        }
        guard mantissaDigits > 0 else { return false }
        if let first = rest.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            skipSign()
            guard skipDigits() > 0 else { return false }
        }
        return rest.isEmpty
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
