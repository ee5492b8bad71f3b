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

    /// The names, for messages: `500, not-json, slow, drop`.
    public static var names: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }
}
