public import Foundation

/// The head of an HTTP/1.x request, as the stub server reads it: method, path, query and headers.
public struct HTTPRequest: Equatable, Sendable {
    /// The request method, for example `GET`.
    public var method: String
    /// The path, percent-decoded, for example `/locations`.
    public var path: String
    /// The query parameters, percent-decoded, in order.
    public var query: [URLQueryItem]
    /// The header fields, names lower-cased; a field given more than once has its values joined by ", ".
    public var headers: [String: String]
    /// The HTTP version, `1.1` or `1.0`.
    public var version: String
    /// How the request's body is delimited (`HTTPMessageFraming`).
    public var framing: HTTPMessageFraming

    /// Creates a request head.
    public init(
        method: String, path: String, query: [URLQueryItem] = [], headers: [String: String] = [:],
        version: String = "1.1", framing: HTTPMessageFraming = .none
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.version = version
        self.framing = framing
    }

    /// The first value of the query parameter `name`: `nil` when it is absent, empty when it has no value.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }.map { $0.value ?? "" }
    }

    /// Whether the head says that a body follows: a chunked body, or a length other than 0.
    ///
    /// The stub server reads no body, so a client that sends one may still be sending when it is answered.
    public var announcesBody: Bool {
        framing != .none && framing != .length(0)
    }

    /// What reading a request head from bytes found so far.
    public enum ParseResult: Equatable, Sendable {
        /// More bytes are needed.
        case incomplete
        /// A whole head.
        case complete(HTTPRequest)
        /// The bytes are not a request the server reads: the reason says why, the status is the answer's (400; 501
        /// for a transfer coding the server does not implement; 505 for an HTTP version it does not speak).
        case invalid(String, status: Int = 400)
        /// The head is longer than the size limit: it ends past the limit, or more bytes than the limit hold no end.
        case tooLarge
    }

    /// Reads a request head from the bytes received so far; a head longer than `maximumSize` bytes is `tooLarge`.
    ///
    /// The head ends at its first empty line (`\r\n` or a bare `\n`). Its lines are read in the order h11, the outside
    /// parser CI holds this one to, reads them: the request line, each field line (`HTTPFieldGrammar`), the framing
    /// (`HTTPMessageFraming`), the `Host` (one, and required of HTTP/1.1), then what the server itself supports: HTTP
    /// 1.0 and 1.1 (505 otherwise), a target that is a path or an absolute URL (RFC 9112 §3.2; `*` and an authority
    /// are refused, 400).
    ///
    /// A request line already complete and wrong is refused at once, before the rest of the head arrives, so binary
    /// garbage is not waited on. The limit applies to the head, from its first byte up to and including the empty line
    /// that ends it, whether it arrived whole or not: how much a read took is the network's business, and bytes after
    /// the head (a body, the next request) are not the head's. A head of exactly `maximumSize` bytes is accepted.
    public static func parse(_ bytes: [UInt8], maximumSize: Int = .max) -> ParseResult {
        if bytes.first == UInt8(ascii: "\n") || bytes.starts(with: Array("\r\n".utf8)) {
            return .invalid("the head begins with an empty line, not a request line")
        }
        guard let end = headEnd(in: bytes) else {
            if let failure = earlyFailure(bytes) { return failure }
            return bytes.count > maximumSize ? .tooLarge : .incomplete
        }
        guard end <= maximumSize else { return .tooLarge }
        switch read(lines(of: bytes[..<end])) {
        case .success(let request): return .complete(request)
        case .failure(let error): return .invalid(error.reason, status: error.status)
        }
    }

    /// A request line already whole and refused, or one that no more bytes can make right; `nil` while it may still.
    private static func earlyFailure(_ bytes: [UInt8]) -> ParseResult? {
        guard let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            // No line yet: a byte no request line holds (a control character, a byte past ASCII) is enough.
            let possible = bytes.enumerated().allSatisfy { index, byte in
                HTTPFieldGrammar.isVisible(byte) || byte == UInt8(ascii: " ")
                    || (byte == UInt8(ascii: "\r") && index == bytes.count - 1)
            }
            return possible ? nil : .invalid("the request line is not text")
        }
        var line = bytes[..<lineEnd]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        if case .failure(let error) = HTTPFieldGrammar.requestLine(line) { return .invalid(error.reason) }
        return nil
    }

    /// Where the head ends: just past the first `\n` followed by an empty line (`\n` or `\r\n`).
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"),
                    bytes[index + 2] == UInt8(ascii: "\n")
                {
                    return index + 3
                }
            }
            index += 1
        }
        return nil
    }

    /// The head's lines, each without its `\n` and one `\r` before it, the empty line that ends the head left out.
    private static func lines(of head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        lines.removeLast(2)  // the empty line, and what follows its \n
        return lines
    }

    /// The request a whole head's lines make, or why it is refused.
    private static func read(_ lines: [ArraySlice<UInt8>]) -> Result<HTTPRequest, HTTPHeadError> {
        Result {
            let (method, target, version) = try HTTPFieldGrammar.requestLine(lines[0]).get()
            let fields = try HTTPFieldGrammar.unfolded(Array(lines.dropFirst())).get().map { line in
                try HTTPFieldGrammar.field(line).get()
            }
            let (framing, kept) = try HTTPMessageFraming.of(fields).get()
            let hosts = kept.filter { $0.name == "host" }.count
            if version == "1.1", hosts == 0 {
                throw HTTPHeadError(400, "an HTTP/1.1 request needs a Host header")
            }
            if hosts > 1 { throw HTTPHeadError(400, "more than one Host header") }
            guard version == "1.1" || version == "1.0" else {
                throw HTTPHeadError(505, "HTTP/\(version) is not supported; the server speaks HTTP/1.1 and HTTP/1.0")
            }
            let (path, query) = try pathAndQuery(of: target)
            var headers: [String: String] = [:]
            for (name, value) in kept {
                headers[name] = headers[name].map { $0 + ", " + value } ?? value
            }
            return HTTPRequest(
                method: method, path: path, query: query, headers: headers, version: version, framing: framing)
        }.mapError { $0 as? HTTPHeadError ?? HTTPHeadError(400, "\($0)") }
    }

    /// The path and query of a target in origin form or absolute form.
    ///
    /// Origin form is `/locations?lat=1`; absolute form `http://host/locations?lat=1`, which a server must accept (RFC
    /// 9112 §3.2.2). The path is percent-decoded; the query is read as a form (`FormURLEncoded`).
    private static func pathAndQuery(of target: String) throws -> (String, [URLQueryItem]) {
        let refused = HTTPHeadError(400, "the request target '\(target)' is neither a path nor an absolute URL")
        let beforeFragment = target.prefix { $0 != "#" }
        let question = beforeFragment.firstIndex(of: "?")
        let resource = beforeFragment[..<(question ?? beforeFragment.endIndex)]
        let query = question.map { FormURLEncoded.items(beforeFragment[beforeFragment.index(after: $0)...]) } ?? []
        if resource.hasPrefix("/") {
            // Read behind a scheme and a host of no meaning, so that a path that starts with `//` stays a path and
            // is not taken for a host (`GET //locations` is the path `//locations`, which the routes do not have).
            guard let components = URLComponents(string: "http://server" + resource) else { throw refused }
            return (components.path, query)
        }
        let lowered = resource.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
            let components = URLComponents(string: String(resource)), components.host != nil
        else { throw refused }
        return (components.path.isEmpty ? "/" : components.path, query)
    }

}
