public import Foundation
import POIHTTP

/// An HTTP/1.1 response of the stub server; every one closes the connection.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields besides Content-Length and Connection, which `serialized` adds.
    public var headers: [(String, String)]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response with `value` encoded, keys sorted so that the output is stable.
    public static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }

    /// A JSON error: `{"error": message, "status": status}`.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(ErrorBody(error: message, status: status), status: status)
    }

    private struct ErrorBody: Encodable {
        var error: String
        var status: Int
    }

    /// The bytes on the wire; a HEAD response keeps the headers and drops the body.
    public func serialized(includingBody: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPStatus.reasonPhrase(for: status))\r\n"
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + (includingBody ? Array(body) : [])
    }
}
