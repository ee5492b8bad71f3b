/// A failure the stub server plays on purpose, for end-to-end tests of the client's failure paths.
///
/// Chosen for the whole server (`poi-server --fault NAME`) or for one request (`/locations?…&fault=NAME`).
public enum StubServerFault: String, CaseIterable, Sendable {
    /// Answers HTTP 500 with an HTML body, as a crashed back end behind a proxy does.
    case serverError = "500"
    /// Answers 200 with a body that is not JSON.
    case notJSON = "not-json"
    /// Answers correctly, but only after the server's slow delay.
    case slow
    /// Closes the connection without answering.
    case drop
    /// Sends the head and half the body, then waits the server's slow delay before the rest: an answer that stops
    /// midway, for a client's timeout, or for a test that kills the server while it answers.
    case stall

    /// The names, for messages: `500, not-json, slow, drop, stall`.
    public static var names: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }
}
