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

    /// A sentence for a person: the status with its meaning, or what was wrong with the body.
    public var description: String {
        switch self {
        case .unacceptableStatusCode(let status, let body):
            let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
                .split(whereSeparator: \.isNewline).joined(separator: " ")
            let reason = "the server answered HTTP \(status) (\(HTTPStatus.reasonPhrase(for: status)))"
            return excerpt.isEmpty ? reason : "\(reason): \(excerpt)"
        case .malformedResponse(let reason):
            return "the server's answer is not the expected JSON: \(reason)"
        case .notHTTPResponse:
            return "the server's answer is not an HTTP response"
        }
    }

    /// The HTTP status code, when the error is about one.
    public var statusCode: Int? {
        if case .unacceptableStatusCode(let status, _) = self { status } else { nil }
    }
}
