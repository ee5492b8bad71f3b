import Foundation
import PortableTestSupport

/// The package's two programs as the end-to-end tests start them, on top of the generic `BuiltProduct`.
enum Programs {
    /// Runs the built `poi` launched as a test runner launches the app: with `IS_UNIT_TESTING=1` (the talk's
    /// launch shortcut), unless `environment` sets the variable otherwise or removes it (`nil`).
    static func poi(_ arguments: [String], environment: [String: String?] = [:]) async throws -> BuiltProduct.Result {
        try await BuiltProduct.run(
            "poi", arguments, environment: ["IS_UNIT_TESTING": "1"].merging(environment) { $1 })
    }

    /// A running `poi-server`: its URL, and its process for signals.
    struct Server: Sendable {
        /// The URL the server printed as its first line.
        let url: URL
        /// The server's process identifier.
        let processIdentifier: Int32
    }

    /// Starts `poi-server` with `arguments`, waits for the URL it prints first, runs `body`, then stops the server
    /// with `stopSignal` (SIGKILL five seconds later if that did not stop it) and waits for it, whether `body`
    /// returned or threw; returns `body`'s result and the server's exit status.
    static func withPOIServer<T: Sendable>(
        _ arguments: [String] = [], stopSignal: Int32 = SIGTERM, _ body: (Server) async throws -> T
    ) async throws -> (result: T, exitStatus: Int32) {
        let printsItsURL: @Sendable (String) -> Bool = { $0.hasPrefix("http://") }
        return try await BuiltProduct.withRunningProcess(
            BuiltProduct.product("poi-server"), arguments, readyWhen: printsItsURL, stopSignal: stopSignal,
            attachingOutput: true
        ) { process in
            guard let line = process.readyLine, let url = URL(string: line) else {
                throw BuiltProduct.Failure(description: "poi-server printed no URL")
            }
            return try await body(Server(url: url, processIdentifier: process.processIdentifier))
        }
    }
}
