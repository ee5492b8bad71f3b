public import Foundation
import POIHTTP

/// Why a request that reached the server did not produce a result.
///
/// Transport failures (no connection, timeout, cancellation) are not wrapped: they arrive as the `URLError`
/// that `URLSession` reported.
public enum APIError: Error, Sendable, CustomStringConvertible {
    /// The server answered with a status outside 200...299; `body` is what it sent (often HTML or a JSON error).
    case unacceptableStatusCode(Int, body: Data)
    /// The body of a successful answer is not what the request expected; the reason says what was wrong.
    case malformedResponse(reason: String)
    /// The answer was not an HTTP response.
    case notHTTPResponse

    /// A sentence for a person, on one line: the status with its meaning and the body's first 200 bytes (cut back to
    /// a whole character, `excerpt(of:bytes:)`), or what was wrong with the body.
    public var description: String {
        switch self {
        case .unacceptableStatusCode(let status, let body):
            let excerpt = Self.excerpt(of: body, bytes: Self.excerptBytes)
                .split(whereSeparator: \.isNewline).joined(separator: " ")
            let reason = "the server answered HTTP \(status) (\(HTTPStatus.reasonPhrase(for: status)))"
            return excerpt.isEmpty ? reason : "\(reason): \(excerpt)"
        case .malformedResponse(let reason):
            return "the server's answer is not the expected JSON: \(reason)"
        case .notHTTPResponse:
            return "the server's answer is not an HTTP response"
        }
    }

    /// How much of an error status's body `description` shows: its first 200 bytes, at most.
    static let excerptBytes = 200

    /// The whole characters of `body` (UTF-8) that lie within its first `limit` bytes.
    ///
    /// Cut at the byte alone, a character across the limit (`é`, two bytes, from byte 200 on) lost its first bytes
    /// and showed as U+FFFD; so the cut goes back to the start of the character it falls in (before the bytes that
    /// continue a UTF-8 sequence, at most three: a sequence is at most four bytes), and a character that what follows
    /// would still extend (a letter and the accent after it) is left out whole. Bytes that are no UTF-8 show as
    /// U+FFFD, as before.
    static func excerpt(of body: Data, bytes limit: Int) -> String {
        guard body.count > limit else { return String(decoding: body, as: UTF8.self) }
        let end = body.startIndex + limit
        var cut = end
        while cut > end - 3, body[cut] & 0b1100_0000 == 0b1000_0000 { cut -= 1 }
        var shown = String(decoding: body[..<cut], as: UTF8.self)
        // What follows, enough bytes for the marks that would join the last character shown.
        let more = String(decoding: body[..<min(cut + 16, body.endIndex)], as: UTF8.self)
        while !shown.isEmpty, !more.hasPrefix(shown) { shown.removeLast() }
        return shown
    }

    /// The HTTP status code, when the error is about one.
    public var statusCode: Int? {
        if case .unacceptableStatusCode(let status, _) = self { status } else { nil }
    }
}
