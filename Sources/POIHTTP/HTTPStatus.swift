/// HTTP status codes and their reason phrases (RFC 9110, section 15): the one table the client's errors and the
/// stub server both read.
///
/// It lives in a target of its own, below both, so that the server can say "Not Found" without linking the
/// networking layer and its URLSession.
public enum HTTPStatus {
    /// The reason phrase of `code`, for example "Not Found" for 404; for a code the table does not list, the
    /// name of its class ("Client Error" for 499), and "Unknown Status" outside 100...599.
    public static func reasonPhrase(for code: Int) -> String {
        if let phrase = phrases[code] { return phrase }
        switch code {
        case 100..<200: return "Informational"
        case 200..<300: return "Success"
        case 300..<400: return "Redirection"
        case 400..<500: return "Client Error"
        case 500..<600: return "Server Error"
        default: return "Unknown Status"
        }
    }

    private static let phrases: [Int: String] = [
        200: "OK",
        204: "No Content",
        301: "Moved Permanently",
        304: "Not Modified",
        400: "Bad Request",
        401: "Unauthorized",
        403: "Forbidden",
        404: "Not Found",
        405: "Method Not Allowed",
        408: "Request Timeout",
        429: "Too Many Requests",
        431: "Request Header Fields Too Large",
        500: "Internal Server Error",
        501: "Not Implemented",
        502: "Bad Gateway",
        503: "Service Unavailable",
        504: "Gateway Timeout",
        505: "HTTP Version Not Supported",
    ]
}
