public import Foundation

/// The head of an HTTP/1.x request, as the stub server reads it: method, path, query and headers.
public struct HTTPRequest: Equatable, Sendable {
    /// The request method, for example `GET`.
    public var method: String
    /// The path, percent-decoded, for example `/locations`.
    public var path: String
    /// The query parameters, percent-decoded, in order.
    public var query: [URLQueryItem]
    /// The header fields, names lower-cased.
    public var headers: [String: String]

    /// Creates a request head.
    public init(method: String, path: String, query: [URLQueryItem] = [], headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The first value of the query parameter `name`: `nil` when it is absent, empty when it has no value.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }.map { $0.value ?? "" }
    }

    /// Whether the head says that a body follows: a Transfer-Encoding, or a Content-Length other than 0.
    ///
    /// The stub server reads no body, so a client that sends one may still be sending when it is answered.
    public var announcesBody: Bool {
        headers["transfer-encoding"] != nil || headers["content-length"].map { Int($0) != 0 } ?? false
    }

    /// What reading a request head from bytes found so far.
    public enum ParseResult: Equatable, Sendable {
        /// More bytes are needed.
        case incomplete
        /// A whole head.
        case complete(HTTPRequest)
        /// The bytes are not an HTTP request; the reason says why.
        case invalid(String)
        /// The head is longer than the size limit: it ends past the limit, or more bytes than the limit hold no end.
        case tooLarge
    }

    /// Reads a request head from the bytes received so far; a head longer than `maximumSize` bytes is `tooLarge`.
    ///
    /// The request line is checked as soon as it is complete, so binary garbage is rejected at once. The limit
    /// applies to the head, from its first byte up to and including the blank line that ends it, whether it arrived
    /// whole or not: how much a read took is the network's business, and bytes after the head (a body, the next
    /// request) are not the head's. A head of exactly `maximumSize` bytes is accepted.
    public static func parse(_ bytes: [UInt8], maximumSize: Int = .max) -> ParseResult {
        guard let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            guard bytes.allSatisfy(isPrintableOrSpace) else { return .invalid("the request line is not text") }
            return bytes.count > maximumSize ? .tooLarge : .incomplete
        }
        let requestLine = text(bytes[..<lineEnd])
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), !parts[0].isEmpty,
            parts[0].allSatisfy({ $0.isUppercase && $0.isASCII })
        else {
            return .invalid("the request line is not 'METHOD /path HTTP/1.1'")
        }
        let target = String(parts[1])
        // Read behind a scheme and a host of no meaning, so that a path that starts with `//` stays a path and is not
        // taken for a host (`GET //locations` is the path `//locations`, which the routes do not have).
        guard target.hasPrefix("/"), let components = URLComponents(string: "http://server" + target) else {
            return .invalid("the request target is not a path")
        }
        guard let blankLine = blankLine(in: bytes, from: lineEnd) else {
            return bytes.count > maximumSize ? .tooLarge : .incomplete
        }
        guard blankLine.upperBound <= maximumSize else { return .tooLarge }
        var headers: [String: String] = [:]
        let fields = text(bytes[(lineEnd + 1)..<blankLine.lowerBound])
        for line in fields.split(whereSeparator: \.isNewline) where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return .invalid("a header line has no colon") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return .complete(
            HTTPRequest(
                method: String(parts[0]),
                path: components.path,
                query: components.queryItems ?? [],
                headers: headers
            )
        )
    }

    /// The blank line that ends the head (`\n` or `\r\n`), searching after the request line: its upper bound is the
    /// head's length.
    private static func blankLine(in bytes: [UInt8], from lineEnd: Int) -> Range<Int>? {
        var index = lineEnd
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                let next = index + 1
                if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return next..<(next + 1) }
                if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") {
                    return next..<(next + 2)
                }
            }
            index += 1
        }
        return nil
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        let string = String(decoding: bytes, as: UTF8.self)
        return string.hasSuffix("\r") ? String(string.dropLast()) : string
    }

    private static func isPrintableOrSpace(_ byte: UInt8) -> Bool {
        (0x20..<0x7F).contains(byte) || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }
}
