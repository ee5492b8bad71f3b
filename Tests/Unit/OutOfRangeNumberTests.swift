import Foundation
import Testing

@testable import POIServerCommand

/// The reader that finds, in a `--data` file Foundation refused, the number a `Double` cannot hold: where it stands
/// (path, line, column) through every kind of JSON value and the white space between them, and nothing, without a
/// trap, in a document cut short anywhere.
@Suite("The out-of-range number of a --data file")
struct OutOfRangeNumberTests {
    /// A document and the number the reader must find in it (`nil`: none).
    struct Case: Sendable, CustomTestStringConvertible {
        let what: String
        let document: String
        let found: OutOfRangeNumber?

        var testDescription: String { what }
    }

    static func found(
        _ what: String, _ document: String, _ text: String, at path: String, line: Int = 1, column: Int,
        tooLarge: Bool = true
    ) -> Case {
        Case(
            what: what, document: document,
            found: OutOfRangeNumber(text: text, path: path, line: line, column: column, tooLarge: tooLarge))
    }

    /// One of each: white space before and after every token, an empty object and array, a key and a value.
    static func spaced(_ space: String) -> String {
        let w = space
        return "\(w)[\(w){\(w)}\(w),\(w)[\(w)]\(w),\(w){\(w)\"a\"\(w):\(w)0\(w),\(w)\"b\"\(w):\(w)1e400\(w)}\(w)]\(w)"
    }

    static let cases: [Case] = [
        found("a document that is the number", "1e400", "1e400", at: "", column: 1),
        found("a document that is a number too small", "-1e-400", "-1e-400", at: "", column: 1, tooLarge: false),
        found("a key at the top: the path has no leading dot", #"{"a":1e400}"#, "1e400", at: "a", column: 6),
        found("objects and arrays nested", #"{"a":{"b":[0,1e400]}}"#, "1e400", at: "a.b[1]", column: 14),
        found("spaces between every token", spaced(" "), "1e400", at: "[2].b", column: 34),
        found("tabs between every token", spaced("\t"), "1e400", at: "[2].b", column: 34),
        found(
            "line feeds between every token: the line counts them", spaced("\n"), "1e400", at: "[2].b", line: 16,
            column: 1),
        found("carriage returns between every token: not lines", spaced("\r"), "1e400", at: "[2].b", column: 34),
        found("after an empty object", "[{}, 1e400]", "1e400", at: "[1]", column: 6),
        found("after an empty array", "[[], 1e400]", "1e400", at: "[1]", column: 6),
        found("after true, false and null", "[true, false, null, 1e400]", "1e400", at: "[3]", column: 21),
        found("after an empty key", #"[{"": 0, "x": 1e400}]"#, "1e400", at: "[0].x", column: 15),
        found(
            "zeros written with exponents are 0, not too small", "[0e5, 0E12, 0.000e-400, 1E-400]", "1E-400", at: "[3]",
            column: 25, tooLarge: false),
        found("after strings holding escapes", #"["a\"b", "\\", 1e400]"#, "1e400", at: "[2]", column: 16),
        found("a key holding an escape, shown as written", #"{"a\"b":1e400}"#, "1e400", at: #"a\"b"#, column: 9),
        found(
            "the first of two, in document order", "[1, -1e-400, 1e400]", "-1e-400", at: "[1]", column: 5,
            tooLarge: false),
        found("found before what is not JSON", "[1e400, x]", "1e400", at: "[0]", column: 2),
        Case(what: "none in range", document: "[1, 1.5e308, -4.9e-324, 0]", found: nil),
        Case(what: "not JSON before the number", document: "[x, 1e400]", found: nil),
        Case(what: "empty", document: "", found: nil),
        Case(what: "only white space", document: " \t\r\n", found: nil),
    ]

    /// Every place a document can be cut short: the reader must give up, not read past its end.
    static let cutShortDocuments = [
        "{", "{ ", "[", "[ ", #"{""#, #"{"a"#, #"{"a""#, #"{"a" "#, #"{"a":"#, #"{"a":1"#, #"{"a":1 "#, #"{"a":1,"#,
        #"{"a":1, "#, "[1", "[1 ", "[1,", "[1, ", #""ab"#, #""a\"#, "t", "tru", "-", "[{}", "[[]",
    ]

    @Test("Each document: the number found, where it stands, or none", arguments: cases)
    func first(_ example: Case) {
        #expect(OutOfRangeNumber.first(in: Data(example.document.utf8)) == example.found)
    }

    @Test("A document cut short anywhere has none, and is read without a trap", arguments: cutShortDocuments)
    func cutShort(_ document: String) {
        #expect(OutOfRangeNumber.first(in: Data(document.utf8)) == nil)
    }

    @Test("The message names the number, where it is, and the range a Double holds")
    func description() {
        let large = OutOfRangeNumber(text: "1e400", path: "[0].a", line: 2, column: 7, tooLarge: true)
        #expect(
            large.description
                == "the number 1e400 at [0].a (line 2, column 7) is too large for a Double (at most ±1.7976931348623157e308)"
        )
        let small = OutOfRangeNumber(text: "1e-400", path: "", line: 1, column: 1, tooLarge: false)
        #expect(
            small.description
                == "the number 1e-400 (line 1, column 1) is too small for a Double and not 0 (the least is ±4.9e-324)")
    }
}
