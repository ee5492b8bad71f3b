/// The grammar of a request head's lines, in one place: the request line (RFC 9112 §3), a field line (RFC 9112 §5,
/// RFC 9110 §5) and obsolete line folding (RFC 9112 §5.2), read the way h11, the outside parser CI holds the server
/// to, reads them (`scripts/tool http-oracle`).
///
/// - A token (a method, a field name) is one or more of RFC 9110's `tchar`: letters, digits and
///   ``!#$%&'*+-.^_`|~``.
/// - A request line is `method SP request-target SP HTTP/d.d`: one space each, the target one or more visible
///   characters (0x21-0x7E).
/// - A field line is `name ":" OWS value OWS`: no space before the colon; the value's pieces are bytes other than NUL
///   and white space (space, tab, CR, LF, VT, FF), joined by spaces and tabs.
/// - A line that begins with a space or a tab continues the field line before it: it is joined to that line with one
///   space (obs-fold, which a server may unfold rather than refuse); before any field line it is an error.
enum HTTPFieldGrammar {
    /// Whether `byte` is a `tchar` of RFC 9110 §5.6.2.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// Whether `bytes` is a token: one `tchar` or more.
    static func isToken<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
    }

    /// Whether `byte` is white space to the field grammar: space, tab, LF, VT, FF or CR.
    static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// Whether `byte` may stand in a field value's piece: anything but NUL and white space.
    static func isValueByte(_ byte: UInt8) -> Bool {
        byte != 0 && !isWhiteSpace(byte)
    }

    /// Whether `byte` is visible ASCII (VCHAR), the characters of a request target.
    static func isVisible(_ byte: UInt8) -> Bool {
        (0x21...0x7E).contains(byte)
    }

    /// The request line's three parts, or why it is not one.
    static func requestLine(_ line: ArraySlice<UInt8>) -> Result<
        (method: String, target: String, version: String), HTTPHeadError
    > {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        let refused = HTTPHeadError(400, "the request line is not 'METHOD TARGET HTTP/1.1' (one space between each)")
        guard parts.count == 3 else { return .failure(refused) }
        let (method, target, version) = (parts[0], parts[1], Array(parts[2]))
        guard isToken(method), !target.isEmpty, target.allSatisfy(isVisible) else { return .failure(refused) }
        let digit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), digit(version[5]),
            version[6] == UInt8(ascii: "."), digit(version[7])
        else { return .failure(refused) }
        return .success((text(method), text(target), text(version[5...])))
    }

    /// The field lines with every obsolete fold joined to the line it continues.
    static func unfolded(_ lines: [ArraySlice<UInt8>]) -> Result<[[UInt8]], HTTPHeadError> {
        var joined: [[UInt8]] = []
        for line in lines {
            guard let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") else {
                joined.append(Array(line))
                continue
            }
            guard !joined.isEmpty else {
                return .failure(HTTPHeadError(400, "a line that begins with white space comes before any header"))
            }
            joined[joined.count - 1] += [UInt8(ascii: " ")] + line.drop { $0 == 0x20 || $0 == 0x09 }
        }
        return .success(joined)
    }

    /// A field line's name, lower-cased, and its value without the white space around it; or why it is not one.
    static func field(_ line: [UInt8]) -> Result<(name: String, value: String), HTTPHeadError> {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            return .failure(HTTPHeadError(400, "a header line has no colon: '\(printable(line))'"))
        }
        let name = line[..<colon]
        if let last = name.last, isWhiteSpace(last) {
            return .failure(HTTPHeadError(400, "white space before the colon of '\(printable(line))'"))
        }
        guard isToken(name) else {
            return .failure(HTTPHeadError(400, "the header name '\(printable(name))' is not a token"))
        }
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        var value = line[(colon + 1)...]
        while let first = value.first, isBlank(first) { value = value.dropFirst() }
        while let last = value.last, isBlank(last) { value = value.dropLast() }
        guard value.allSatisfy({ isValueByte($0) || isBlank($0) }) else {
            return .failure(
                HTTPHeadError(400, "the value of header '\(text(name))' holds a control character or NUL"))
        }
        return .success((text(name).lowercased(), text(value)))
    }

    /// The bytes as text; a byte that is not UTF-8 is replaced.
    static func text<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes as a message may quote them: visible ASCII and spaces as they are, any other byte as `\xHH`.
    static func printable<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        bytes.prefix(80).map { byte in
            (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "\\")
                ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined() + (bytes.count > 80 ? "…" : "")
    }
}

extension String {
    /// The string with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
