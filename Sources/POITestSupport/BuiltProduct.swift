public import Foundation
import POISockets
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the package's built executables from tests: the end-to-end tier's way to use `poi` and `poi-server`.
///
/// Waiting for a process goes through `terminationHandler`, after both pipes were read to the end:
/// `Process.waitUntilExit()` adds about 50 ms per process on Linux, the handler about 5 ms. Every process is
/// ended even when the test fails: `run` kills a process that outlives its time limit, and `withServer` stops
/// the server however its body ends.
public enum BuiltProduct {
    /// What a finished process left: its exit status and everything it wrote.
    public struct Result: Sendable {
        /// The exit status (or 128 + the signal's number when a signal ended it).
        public var status: Int32
        /// Standard output.
        public var standardOutput: String
        /// Standard error.
        public var standardError: String
    }

    /// Why a product could not be run.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The folder of the built products: where the test bundle itself was built.
    public static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            return Bundle.main.bundleURL.deletingLastPathComponent()
        #else
            return Bundle.main.bundleURL
        #endif
    }

    /// Runs the built product `name` with `arguments` and returns when it has exited.
    ///
    /// `environment` is added to the test's own; a process still running after `timeLimit` is killed and the call
    /// throws, so a hanging product fails its test instead of hanging the suite.
    public static func run(
        _ name: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        timeLimit: Duration = .seconds(20)
    ) async throws -> Result {
        let (process, output, errors, exited) = try await start(
            productsDirectory.appendingPathComponent(name),
            arguments,
            environment: environment
        )
        let watchdog = Task {
            try await Task.sleep(for: timeLimit)
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
        }
        async let standardOutput = readToEnd(output.fileHandleForReading)
        async let standardError = readToEnd(errors.fileHandleForReading)
        let (stdout, stderr) = await (standardOutput, standardError)
        await exited.wait()
        watchdog.cancel()
        if process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL {
            throw Failure(description: "\(name) \(arguments.joined(separator: " ")) ran longer than \(timeLimit)")
        }
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Result(status: status, standardOutput: stdout, standardError: stderr)
    }

    /// A running `poi-server`: its URL, and its process for signals.
    public struct Server: Sendable {
        /// The URL the server printed as its first line.
        public let url: URL
        /// The server's process identifier.
        public let processIdentifier: Int32
    }

    /// Starts `poi-server` with `arguments`, waits for the URL it prints first, runs `body`, then stops the server
    /// with SIGTERM and waits for it, whether `body` returned or threw; returns `body`'s result and the server's
    /// exit status.
    public static func withServer<T: Sendable>(
        _ arguments: [String] = [],
        _ body: (Server) async throws -> T
    ) async throws -> (result: T, serverStatus: Int32) {
        let executable = productsDirectory.appendingPathComponent("poi-server")
        return try await withRunningProcess(executable, arguments) { firstLine, processIdentifier in
            guard let url = URL(string: firstLine), url.scheme == "http" else {
                throw Failure(description: "poi-server printed no URL (first line: \(firstLine))")
            }
            return try await body(Server(url: url, processIdentifier: processIdentifier))
        }
    }

    /// How a process started by `withRunningProcess` shows that it is ready.
    public enum Readiness: Sendable {
        /// It prints a first line of output, as `poi-server` prints its URL.
        case firstLine
        /// It prints nothing; the body waits for its own sign (gpsd connecting to its receiver, say).
        case toldByBody
    }

    /// Starts `executable`, waits for its first line of output (its sign that it is ready) unless `readiness` says
    /// the body waits instead, runs `body` with that line ("" then) and the process identifier, then stops the
    /// process with `stopSignal` (SIGKILL after five seconds) and waits for it, whether `body` returned or threw;
    /// returns `body`'s result and the process's exit status.
    public static func withRunningProcess<T: Sendable>(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String] = [:],
        readiness: Readiness = .firstLine,
        stopSignal: Int32 = SIGTERM,
        _ body: (_ firstLine: String, _ processIdentifier: Int32) async throws -> T
    ) async throws -> (result: T, serverStatus: Int32) {
        let (process, output, errors, exited) = try await start(executable, arguments, environment: environment)
        func stop() async -> Int32 {
            if process.isRunning { kill(process.processIdentifier, stopSignal) }
            // A process that ignores the signal is killed after five seconds rather than hanging the suite.
            let killer = Task {
                try await Task.sleep(for: .seconds(5))
                kill(process.processIdentifier, SIGKILL)
            }
            await exited.wait()
            killer.cancel()
            return process.terminationReason == .uncaughtSignal
                ? 128 + process.terminationStatus : process.terminationStatus
        }
        let firstLine: String? =
            switch readiness {
            case .firstLine: await readFirstLine(output.fileHandleForReading)
            case .toldByBody: ""
            }
        guard let firstLine else {
            _ = await stop()
            let stderr = await readToEnd(errors.fileHandleForReading)
            throw Failure(description: "\(executable.lastPathComponent) printed nothing (stderr: \(stderr))")
        }
        do {
            let result = try await body(firstLine, process.processIdentifier)
            return (result, await stop())
        } catch {
            _ = await stop()
            // A process that says nothing when ready may have said why it was not: give that with the error.
            guard readiness == .toldByBody else { throw error }
            let stderr = await readToEnd(errors.fileHandleForReading).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !stderr.isEmpty else { throw error }
            throw Failure(description: "\(error) (\(executable.lastPathComponent) wrote: \(stderr))")
        }
    }

    /// Starts `process` from a thread whose signal mask is empty.
    ///
    /// Linux: `Process` passes the launching thread's signal mask on to the child, and the threads that run Swift
    /// tasks block SIGINT and SIGTERM; a child that does not reset its mask (gpsfake, a Python program) then
    /// ignores the signals that should stop it.
    private static func launch(_ process: Process) async throws {
        let launched = UncheckedProcess(process)
        try await BlockingCall.run {
            var empty = sigset_t()
            sigemptyset(&empty)
            pthread_sigmask(SIG_SETMASK, &empty, nil)
            try launched.process.run()
        }
    }

    /// Starts `executable` with pipes for its output and errors, no input, and an awaitable exit.
    private static func start(_ executable: URL, _ arguments: [String], environment: [String: String]) async throws
        -> (process: Process, output: Pipe, errors: Pipe, exited: Exit)
    {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Failure(description: "no executable \(executable.path); run 'swift build' first")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let exited = Exit()
        process.terminationHandler = { _ in exited.signal() }
        try await launch(process)
        return (process, output, errors, exited)
    }

    private static func readToEnd(_ handle: FileHandle) async -> String {
        await BlockingCall.run {
            String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        }
    }

    private static func readFirstLine(_ handle: FileHandle) async -> String? {
        await BlockingCall.run {
            var line = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
                if line.contains(UInt8(ascii: "\n")) { break }
            }
            return String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init)
        }
    }
}

/// Hands a `Process` to the launching thread; it is used there only until `run()` returns.
private struct UncheckedProcess: @unchecked Sendable {
    let process: Process

    init(_ process: Process) {
        self.process = process
    }
}

/// A process exit that can be awaited, signalled from `terminationHandler`.
private final class Exit: Sendable {
    private let state = Mutex<(exited: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func signal() {
        let waiters = state.withLock { state in
            state.exited = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.exited { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
