import Foundation

/// A number that JSON allows but a `Double` cannot hold, found in a document `JSONDecoder` refused: where it stands
/// and which way it is out of range.
///
/// JSON puts no bound on a number; Foundation reads every number as a `Double` and refuses the whole document as "not
/// valid JSON" when one is too large (`1e400`, becomes infinite) or too small and not zero (`1e-400`, becomes 0). That
/// message sends a user looking for a syntax error that is not there: this finds the number instead.
struct OutOfRangeNumber: Equatable {
    /// The number as the document writes it.
    let text: String
    /// Where it stands: `[0].coordinate.latitude`, or empty for a document that is the number.
    let path: String
    /// Its line, counted from 1.
    let line: Int
    /// Its column on that line, in bytes, counted from 1.
    let column: Int
    /// Whether it is too large (else it is too small, and not zero).
    let tooLarge: Bool

    /// The message: what the number is, where, and the range a `Double` holds.
    var description: String {
        let at = path.isEmpty ? "" : " at \(path)"
        let range =
            tooLarge
            ? "too large for a Double (at most ±1.7976931348623157e308)"
            : "too small for a Double and not 0 (the least is ±4.9e-324)"
        return "the number \(text)\(at) (line \(line), column \(column)) is \(range)"
    }

    /// The first such number in `data`, in document order; `nil` when there is none, or when `data` is not JSON for
    /// another reason first.
    static func first(in data: Data) -> OutOfRangeNumber? {
        var scanner = Scanner(bytes: Array(data))
        return try? scanner.document()
    }

    /// A recursive reader of just enough JSON to keep the path to each number: it stops at the first out-of-range
    /// number (returned) or the first error (thrown).
    private struct Scanner {
        struct NotJSON: Error {}

        let bytes: [UInt8]
        var index = 0
        var path: [String] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func document() throws -> OutOfRangeNumber? {
            try value()
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        private mutating func value() throws -> OutOfRangeNumber? {
            skipSpace()
            guard index < bytes.count else { throw NotJSON() }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""):
                _ = try string()
                return nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default:
                for word in ["true", "false", "null"] where bytes[index...].starts(with: Array(word.utf8)) {
                    index += word.utf8.count
                    return nil
                }
                throw NotJSON()
            }
        }

        private mutating func object() throws -> OutOfRangeNumber? {
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return nil
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw NotJSON() }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw NotJSON() }
                index += 1
                path.append("." + key)
                if let found = try value() { return found }
                path.removeLast()
                skipSpace()
                guard index < bytes.count else { throw NotJSON() }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { return nil }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw NotJSON() }
            }
        }

        private mutating func array() throws -> OutOfRangeNumber? {
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return nil
            }
            var element = 0
            while true {
                path.append("[\(element)]")
                if let found = try value() { return found }
                path.removeLast()
                skipSpace()
                guard index < bytes.count else { throw NotJSON() }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "]") { return nil }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw NotJSON() }
                element += 1
            }
        }

        /// A string's contents, escapes left as written (a key is only shown).
        private mutating func string() throws -> String {
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end < bytes.count else { throw NotJSON() }
            index = end + 1
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        private mutating func number() throws -> OutOfRangeNumber? {
            let start = index
            let numberBytes = Set("+-.eE0123456789".utf8)
            while index < bytes.count, numberBytes.contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(text) else { throw NotJSON() }
            let mantissa = text.prefix { $0 != "e" && $0 != "E" }
            let tooSmall = value == 0 && mantissa.contains { ("1"..."9").contains($0) }
            guard value.isInfinite || tooSmall else { return nil }
            let before = bytes[..<start]
            let line = before.filter { $0 == 0x0A }.count + 1
            let column = start - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            let rendered = path.joined()
            return OutOfRangeNumber(
                text: text, path: rendered.hasPrefix(".") ? String(rendered.dropFirst()) : rendered, line: line,
                column: column, tooLarge: value.isInfinite)
        }
    }
}
