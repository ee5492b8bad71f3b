import Foundation
import POICommandLine
import POIDomain
import POILocation
import POIServer
import PortableTestSupport
import Testing

@testable import POINetworking
@testable import POIServerCommand

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server's answer as the app reads it, by class and boundary: each status and body, and the places or the error.
///
/// docs/inputs.md lists the cases (scripts/tool inputs).
@Suite("The server's answer, by class and boundary")
struct APIRequestLoaderInputTests {

    /// A status and a body, and whether the app takes the places or which error it gives.
    struct Answer: Sendable {
        var status: Int
        var body: String
        var expected: Expected
    }

    enum Expected: Sendable, Equatable {
        case places(Int)
        case unacceptableStatus
        case malformed
    }

    static func answer(
        _ input: String, _ kind: InputCase<Answer>.Kind, _ label: String, status: Int = 200, body: String = "[]",
        _ expected: Expected
    ) -> InputCase<Answer> {
        InputCase(input, kind, label, value: Answer(status: status, body: body, expected: expected))
    }

    static let twoPlaces = #"[{"name":"A"},{"name":"B"}]"#

    static let answerCases = [
        answer("the answer's status", .valid, "200", body: twoPlaces, .places(2)),
        answer("the answer's status", .boundary, "299, the last success", body: twoPlaces, .places(2)),
        answer("the answer's status", .boundary, "204, a success with no body", status: 204, body: "", .malformed),
        answer(
            "the answer's status", .boundary, "300, the first that is not a success", status: 300, body: twoPlaces,
            .unacceptableStatus),
        answer(
            "the answer's status", .boundary, "199, the last before success", status: 199, body: twoPlaces,
            .unacceptableStatus),
        answer(
            "the answer's status", .invalid, "304, neither success nor error", status: 304, body: twoPlaces,
            .unacceptableStatus),
        answer("the answer's status", .invalid, "404", status: 404, body: #"{"error":"no"}"#, .unacceptableStatus),
        answer("the answer's status", .invalid, "500", status: 500, body: "<html></html>", .unacceptableStatus),
        answer("the answer's status", .huge, "999", status: 999, body: twoPlaces, .unacceptableStatus),
        answer("the answer's status", .empty, "200 with an empty body", body: "", .malformed),
        answer("the answer's status", .separator, "200 with a body of two JSON arrays", body: "[][]", .malformed),
        answer("the answer's body", .valid, "two places", body: twoPlaces, .places(2)),
        answer("the answer's body", .empty, "an empty array", body: "[]", .places(0)),
        answer("the answer's body", .empty, "nothing", body: "", .malformed),
        answer("the answer's body", .invalid, "text", body: "this is not JSON\n", .malformed),
        answer(
            "the answer's body", .invalid, "an error object with 200", body: #"{"error":"x","status":400}"#, .malformed),
        answer(
            "the answer's body", .boundary, "a place at latitude 90.000001",
            body: #"[{"name":"A","coordinate":{"latitude":90.000001,"longitude":0}}]"#, .malformed),
        answer(
            "the answer's body", .separator, "a name holding '\"', ',' and a newline", body: #"[{"name":"A\", B\nC"}]"#,
            .places(1)),
        answer(
            "the answer's body", .huge, "10,000 places",
            body: "[" + Array(repeating: #"{"name":"P"}"#, count: 10_000).joined(separator: ",") + "]", .places(10_000)),
    ]

    @Test("The server's answer: each class of status and body, and what the app makes of it", arguments: answerCases)
    func answers(_ input: InputCase<Answer>) throws {
        let request = PointsOfInterestRequest()
        let url = try #require(URL(string: "http://127.0.0.1/locations"))
        let response = HTTPURLResponse(
            url: url, statusCode: input.value.status, httpVersion: "HTTP/1.1", headerFields: [:])
        let result = APIRequestLoader.result(
            apiRequest: request, data: Data(input.value.body.utf8), response: response, error: nil)
        switch (result, input.value.expected) {
        case (.success(let places), .places(let count)):
            #expect(places.count == count)
        case (.failure(APIError.unacceptableStatusCode(let status, _)), .unacceptableStatus):
            #expect(status == input.value.status)
        case (.failure(APIError.malformedResponse), .malformed):
            break
        default:
            Issue.record("expected \(input.value.expected), got \(result)")
        }
    }
}
