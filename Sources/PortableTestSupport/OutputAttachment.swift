import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a test saw from outside its own code, kept as an attachment of the running Swift Testing test: a launched
/// program's output, the requests a stub answered.
///
/// The talk's warning about end-to-end tests is that their failures are hard to trace. A failing test's report then
/// comes with what the programs printed and what reached the stub: `swift test --attachments-path DIR` saves every
/// attachment as a file, named after what it holds. Outside a Swift Testing test (in XCTest) nothing is recorded.
enum OutputAttachment {
    /// Hears each attachment recorded in its task, by name and text; `nil`, nobody, unless a test binds it.
    ///
    /// How this module's own tests read what an attachment holds: Swift Testing lets no test read its attachments.
    @TaskLocal static var recorded: (@Sendable (_ name: String, _ text: String) -> Void)?

    /// Records a finished process: its command line, exit status, standard output and standard error.
    static func recordProcess(
        _ name: String, _ arguments: [String], status: Int32?, standardOutput: String, standardError: String
    ) {
        guard Test.current != nil else { return }
        let command = ([name] + arguments).joined(separator: " ")
        let text = """
            $ \(command)
            exit status: \(status.map(String.init) ?? "still running")
            --- standard output
            \(standardOutput)
            --- standard error
            \(standardError)
            """
        recorded?("\(name) output.txt", text)
        Attachment.record(text, named: "\(name) output.txt")
    }

    /// Records the requests a stub was sent, in order, each with its method, URL, headers and body.
    static func recordRequests(_ requests: [URLRequest], to host: String) {
        guard Test.current != nil, !requests.isEmpty else { return }
        let text = requests.map { request in
            let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
                .map { "\($0.key): \($0.value)" }
            let body = request.httpBody.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return ([(request.httpMethod ?? "GET") + " " + (request.url?.absoluteString ?? "")] + headers + ["", body])
                .joined(separator: "\n")
        }.joined(separator: "\n\n")
        recorded?("requests to \(host).txt", text)
        Attachment.record(text, named: "requests to \(host).txt")
    }
}
