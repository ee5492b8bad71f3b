/// How a request's body is delimited, decided in one place from its header fields as RFC 9112 §6.3 orders it, the
/// way h11 decides it.
///
/// 1. A `Transfer-Encoding` makes the body chunked, whatever a `Content-Length` says (the length is then ignored).
///    The one coding the server knows is `chunked` (any case); any other coding, a list of codings, or a second
///    `Transfer-Encoding` field is refused with 501.
/// 2. Otherwise a `Content-Length` gives the length: each field, and each item of a comma-separated list, must be
///    digits only (no sign, no space inside, not empty, 20 at most), and all must be the same digits; anything else
///    is refused with 400, since the message's end could not be known.
/// 3. Otherwise a request has no body.
///
/// The server reads no body in any case; the framing tells it whether the client may still be sending one when it
/// answers, so that it closes gracefully (`StubServer`'s lingering close).
public enum HTTPMessageFraming: Equatable, Sendable {
    /// No body.
    case none
    /// A body of this many bytes (`Int.max` for more digits than an `Int` holds).
    case length(Int)
    /// A chunked body.
    case chunked

    /// The most digits a `Content-Length` may have: 20, as h11 allows (more than any body, and than an `Int`, holds).
    static let maximumDigits = 20

    /// The framing the `fields` (names lower-cased, in order) decide, and the fields with the `Content-Length`s
    /// folded into one; or why the head is refused.
    static func of(_ fields: [(name: String, value: String)]) -> Result<
        (framing: HTTPMessageFraming, fields: [(name: String, value: String)]), HTTPHeadError
    > {
        var length: String?
        var chunked = false
        var kept: [(name: String, value: String)] = []
        for field in fields {
            switch field.name {
            case "content-length":
                let items = Set(field.value.split(separator: ",", omittingEmptySubsequences: false).map(trimmed))
                guard items.count == 1, let item = items.first else {
                    return .failure(HTTPHeadError(400, "conflicting Content-Length values: '\(field.value)'"))
                }
                guard !item.isEmpty, item.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
                else {
                    return .failure(
                        HTTPHeadError(400, "Content-Length '\(field.value)' is not a number of bytes in digits"))
                }
                guard item.utf8.count <= maximumDigits else {
                    return .failure(
                        HTTPHeadError(400, "Content-Length '\(item)' has more than \(maximumDigits) digits"))
                }
                if let length, length != item {
                    return .failure(HTTPHeadError(400, "conflicting Content-Length values: \(length) and \(item)"))
                }
                if length == nil { kept.append((field.name, item)) }
                length = item
            case "transfer-encoding":
                guard !chunked else {
                    return .failure(HTTPHeadError(501, "more than one Transfer-Encoding; only chunked is implemented"))
                }
                guard field.value.lowercased() == "chunked" else {
                    return .failure(
                        HTTPHeadError(501, "Transfer-Encoding '\(field.value)' is not implemented; only chunked is"))
                }
                chunked = true
                kept.append((field.name, "chunked"))
            default:
                kept.append(field)
            }
        }
        if chunked { return .success((.chunked, kept)) }
        guard let length else { return .success((.none, kept)) }
        return .success((.length(Int(length) ?? .max), kept))
    }

    /// `text` without the ASCII white space at its ends.
    private static func trimmed(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { " \t\r\n\u{0B}\u{0C}".contains($0) }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
