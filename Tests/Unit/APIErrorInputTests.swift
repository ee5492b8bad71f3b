import Foundation
import POINetworking
import PortableTestSupport
import Testing

/// An HTTP error's body, by class and boundary, as the error's one-line description shows it.
///
/// docs/inputs.md lists the cases (scripts/tool inputs).
@Suite("An error status's body, by class and boundary")
struct APIErrorInputTests {
    static func body(_ kind: InputCase<(Data, String)>.Kind, _ label: String, _ body: String, _ shown: String)
        -> InputCase<(Data, String)>
    {
        InputCase("the answer's error body", kind, label, value: (Data(body.utf8), shown))
    }

    static let reason = "the server answered HTTP 500 (Internal Server Error)"

    static let cases = [
        body(.valid, "one line", "broke", "\(reason): broke"),
        body(.separator, "lines ending with LF", "a\nb\n", "\(reason): a b"),
        body(.separator, "lines ending with CRLF", "a\r\nb\r\n", "\(reason): a b"),
        body(.separator, "lines ending with CR alone", "a\rb", "\(reason): a b"),
        body(.separator, "blank lines between", "a\n\n\nb", "\(reason): a b"),
        body(.empty, "no body", "", reason),
        body(.empty, "newlines only", "\r\n\n", reason),
        body(
            .boundary, "200 bytes: all shown", String(repeating: "x", count: 200),
            "\(reason): \(String(repeating: "x", count: 200))"),
        body(
            .boundary, "201 bytes: the first 200", String(repeating: "x", count: 201),
            "\(reason): \(String(repeating: "x", count: 200))"),
        body(
            .boundary, "a two-byte character across byte 200: left out, not cut",
            String(repeating: "a", count: 199) + "é", "\(reason): \(String(repeating: "a", count: 199))"),
        body(
            .boundary, "a four-byte character ending at byte 200: shown whole",
            String(repeating: "a", count: 196) + "🗺" + "b", "\(reason): \(String(repeating: "a", count: 196))🗺"),
        body(
            .boundary, "a four-byte character across byte 200, by its last byte: left out whole",
            String(repeating: "a", count: 197) + "🗺" + "b", "\(reason): \(String(repeating: "a", count: 197))"),
        InputCase(
            "the answer's error body", .invalid, "201 bytes that start no character: cut at most three bytes back",
            value: (Data(repeating: 0x80, count: 201), "\(reason): \(String(repeating: "\u{FFFD}", count: 197))")),
        body(
            .boundary, "a letter at byte 200 whose accent follows it: left out with its accent",
            String(repeating: "a", count: 199) + "e\u{301}", "\(reason): \(String(repeating: "a", count: 199))"),
        body(
            .boundary, "an accent across byte 200: its letter left out too",
            String(repeating: "a", count: 198) + "e\u{301}", "\(reason): \(String(repeating: "a", count: 198))"),
        // Made as bytes: a String of a million one-letter appends took about 50 ms, near a tenth of the tier's work.
        InputCase(
            "the answer's error body", .huge, "1 MB: the first 200 bytes",
            value: (
                Data(repeating: UInt8(ascii: "y"), count: 1_000_000), "\(reason): \(String(repeating: "y", count: 200))"
            )),
        InputCase(
            "the answer's error body", .invalid, "a byte that is not UTF-8, shown as a replacement character",
            value: (Data([0x61, 0xFF]), "\(reason): a\u{FFFD}")),
    ]

    @Test(
        "The description is one line: the status, its meaning, and the body's whole characters within its first 200 bytes",
        arguments: cases)
    func description(_ input: InputCase<(Data, String)>) {
        let description = APIError.unacceptableStatusCode(500, body: input.value.0).description
        #expect(description == input.value.1)
        #expect(description.split(whereSeparator: \.isNewline).count <= 1)
    }
}
