import Foundation
import PortableTestSupport

/// `poi-server` as the end-to-end tests start it, on top of the generic `BuiltProduct`: a server that runs until the
/// test's body is done. (`poi` runs through `ProgramUnderTest.poi(.launched)`, the one way every tier runs it.)
enum Programs {
    /// A running `poi-server`: its URL, and its process for signals.
    struct Server: Sendable {
        /// The URL the server printed as its first line.
        let url: URL
        /// The server's process identifier.
        let processIdentifier: Int32
    }

    /// Starts `poi-server` with `arguments`, waits for the URL it prints first, runs `body`, then stops the server
    /// with `stopSignal` (SIGKILL `killAfter` later, five seconds unless said otherwise, if that did not stop it) and
    /// waits for it, whether `body` returned or threw; returns `body`'s result and the server's exit status.
    static func withPOIServer<T: Sendable>(
        _ arguments: [String] = [], stopSignal: Int32 = SIGTERM, killAfter: Duration = .seconds(5),
        _ body: (Server) async throws -> T
    ) async throws -> (result: T, exitStatus: Int32) {
        let printsItsURL: @Sendable (String) -> Bool = { $0.hasPrefix("http://") }
        return try await BuiltProduct.withRunningProcess(
            BuiltProduct.product("poi-server"), arguments, readyWhen: printsItsURL, stopSignal: stopSignal,
            killAfter: killAfter,
            attachingOutput: true
        ) { process in
            guard let line = process.readyLine, let url = URL(string: line) else {
                throw BuiltProduct.Failure(description: "poi-server printed no URL")
            }
            return try await body(Server(url: url, processIdentifier: process.processIdentifier))
        }
    }
}
