public import Foundation

/// A query string read as `application/x-www-form-urlencoded`, the way the WHATWG URL standard parses it (§5.1):
/// what a browser's `URLSearchParams`, curl's `--data-urlencode` and every form send.
///
/// 1. The string is split on `&`; an empty piece (`a=1&&b=2`, a trailing or leading `&`) is skipped.
/// 2. A piece's name is what comes before its first `=`, its value what comes after (`a==b` is `a` = `=b`); a piece
///    without `=` is a name with an empty value.
/// 3. In both, `+` is a space, then each `%` and two hex digits is the byte they spell (`%2B` is `+`); a `%` not
///    followed by two hex digits stays a `%`.
/// 4. The bytes are read as UTF-8, a byte that is not replaced by U+FFFD.
public enum FormURLEncoded {
    /// The name-value pairs of `query` (without its `?`), in order.
    public static func items(_ query: Substring) -> [URLQueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { piece in
            let equals = piece.firstIndex(of: "=")
            let name = piece[..<(equals ?? piece.endIndex)]
            let value = equals.map { piece[piece.index(after: $0)...] } ?? ""
            return URLQueryItem(name: decoded(name), value: decoded(value))
        }
    }

    /// `text` with `+` read as a space and every `%XX` as its byte, the bytes read as UTF-8.
    static func decoded(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]),
                let low = hex(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of a hex digit, either case; `nil` for any other byte.
    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
