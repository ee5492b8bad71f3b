public import Foundation
import POILock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs executables from tests, the package's own built products first: the end-to-end tier's process helper, and
/// `ProgramUnderTest`'s launched mode.
///
/// It knows nothing of any one program: a caller says how a process shows it is ready (a predicate on its lines
/// of output) and which signal stops it. Waiting goes through `terminationHandler`, after both pipes were read to
/// the end: on Linux `Process.waitUntilExit()` polls, which costs a process several times what the handler does
/// (measured in docs/04-end-to-end-and-contract-tests.md). Every process is ended even when the test fails: `run`
/// kills a process that outlives its time limit, and `withRunningProcess` stops its process however its body ends.
public enum BuiltProduct {
    /// What a finished process left: its exit status and everything it wrote.
    ///
    /// `ProgramUnderTest` gives the same from a run in process, so that one test body reads either.
    public struct Result: Sendable, Equatable {
        /// The exit status, or 128 + the signal's number when a signal ended the process, as a shell reports it.
        public var status: Int32
        /// Standard output.
        public var standardOutput: String
        /// Standard error.
        public var standardError: String

        /// The result of a run that ended with `status` and wrote the two outputs: what a test expects, to compare
        /// a whole run at once.
        public init(status: Int32, standardOutput: String, standardError: String) {
            self.status = status
            self.standardOutput = standardOutput
            self.standardError = standardError
        }
    }

    /// A process that `withRunningProcess` started and will stop.
    public struct RunningProcess: Sendable {
        /// Its process identifier, for signals.
        public let processIdentifier: Int32
        /// The line of output that showed it was ready, or `nil` when no readiness was asked for.
        public let readyLine: String?
    }

    /// Why a process could not be run, or did not get ready.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String

        /// Creates the failure that `description` explains.
        public init(description: String) {
            self.description = description
        }
    }

    /// The folder of the built products: where the test image that holds this code was built, beside the
    /// package's executables.
    ///
    /// Found the same way on Linux and macOS, from the file of the image (executable or shared library) that holds
    /// this module's machine code, whatever process loaded it: `dladdr` names the image that `#dsohandle`, this
    /// module's image header, lies in. `Bundle.main` and `Bundle(for:)` would name the process's or a class's bundle,
    /// which is `xctest`'s or Swift Testing's helper's on macOS, not the tests'. `productsDirectory(ofImage:)` says
    /// which folder of the image's path the products are in. When no folder can be found, this is a folder that
    /// cannot exist, and running a product from it throws `productsDirectoryNotFound`.
    public static var productsDirectory: URL {
        image.map(productsDirectory(ofImage:)) ?? notFoundDirectory
    }

    /// The file of the image that holds this module's machine code, its symbolic links resolved; `nil` when `dladdr`
    /// names none, which no dynamically linked process does.
    static let image = loadedImage(containing: #dsohandle)

    /// The file of the loaded image that holds `address`, its symbolic links resolved; `nil` when none does.
    ///
    /// `dladdr` is in both systems' C libraries, with the same `Dl_info`; Swift's Glibc module does not declare it
    /// (glibc does for `_GNU_SOURCE` alone), so it is looked up by name, among the process's libraries, the same way
    /// on both. glibc names the main executable by its `argv[0]`: a relative path is read from the current folder, as
    /// the system read it when it started the process, and a bare name (found on `PATH`) is the main executable's,
    /// which `Bundle.main` knows. A library's name always holds a `/`: the folder it was found in.
    static func loadedImage(containing address: UnsafeRawPointer) -> URL? {
        typealias DLAddr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "dladdr") else { return nil }
        let dladdr = unsafeBitCast(symbol, to: DLAddr.self)
        // Dl_info: the image's file name and its address, then the nearest symbol's name and its address.
        let name = withUnsafeTemporaryAllocation(of: UnsafeRawPointer?.self, capacity: 4) { info -> String? in
            info.initialize(repeating: nil)
            guard dladdr(address, info.baseAddress) != 0, let file = info[0] else { return nil }
            return String(cString: file.assumingMemoryBound(to: CChar.self))
        }
        guard let name, !name.isEmpty else { return nil }
        let file = name.contains("/") ? URL(fileURLWithPath: name) : Bundle.main.executableURL
        return file?.resolvingSymlinksInPath()
    }

    /// The products folder of the test image at `image`: the folder that holds its `.xctest` bundle when the image is
    /// that bundle's executable (`debug/X.xctest/Contents/MacOS/X`: macOS, where `xctest` and Swift Testing's helper
    /// load the bundle), else the image's own folder (`debug/X.xctest`, Linux's test executable; Swift Build's
    /// `Debug-linux/XTests-test-runner` and the library it loads, `Debug-linux/XTests.so`).
    ///
    /// Only the place where a bundle's executable sits counts, so a project folder named `.xctest` further up is
    /// never taken for the bundle.
    static func productsDirectory(ofImage image: URL) -> URL {
        let folder = image.standardizedFileURL.deletingLastPathComponent()
        let contents = folder.deletingLastPathComponent()
        let bundle = contents.deletingLastPathComponent()
        let isBundleExecutable =
            folder.lastPathComponent == "MacOS" && contents.lastPathComponent == "Contents"
            && bundle.pathExtension == "xctest"
        return isBundleExecutable ? bundle.deletingLastPathComponent() : folder
    }

    /// The products folder when none was found: one that cannot exist, `/dev/null` being no folder.
    static let notFoundDirectory = URL(fileURLWithPath: "/dev/null/products-folder-not-found")

    /// Why a built product cannot be run when no products folder was found.
    static let productsDirectoryNotFound =
        "no products folder: dladdr, looked up with dlsym, named no image that holds PortableTestSupport's code"

    /// The built product `name`.
    public static func product(_ name: String) -> URL {
        productsDirectory.appendingPathComponent(name)
    }

    /// Where the system keeps the programs a package installs, searched after `PATH` by `installedProgram(_:)`: Debian's
    /// (`/usr/sbin` is on no user's `PATH` there), then Homebrew's on Apple silicon and on Intel Macs.
    public static let programFolders = [
        "/usr/sbin", "/usr/bin", "/opt/homebrew/sbin", "/opt/homebrew/bin", "/usr/local/sbin", "/usr/local/bin",
    ]

    /// The installed program `name` (gpsd, say): the first executable of that name in `folders`, by default `PATH`'s
    /// folders and then `programFolders`, the same search on Linux and macOS; `nil` when none is installed.
    public static func installedProgram(_ name: String, in folders: [String]? = nil) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        return (folders ?? path + programFolders).lazy
            .map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the built product `name`; see `run(_:_:environment:timeLimit:)` for an executable by path.
    public static func run(
        _ name: String,
        _ arguments: [String],
        environment: [String: String?] = [:],
        timeLimit: Duration = BoundedWaitLimit.program
    ) async throws -> Result {
        try await run(product(name), arguments, environment: environment, timeLimit: timeLimit)
    }

    /// Runs `executable` with `arguments` and returns when it has exited.
    ///
    /// `environment` changes the test's own: a value sets a variable, `nil` removes it. A process still running
    /// after `timeLimit` is killed and the call throws `WaitTimedOut` naming the run ("the end of poi featured
    /// --count 2"), so a hanging program fails its test instead of hanging the suite. A call cancelled while the
    /// process runs (its test's time limit, a cancelled task) kills the process at once, waits for it to end, and
    /// throws `CancellationError`.
    public static func run(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String?] = [:],
        timeLimit: Duration = BoundedWaitLimit.program
    ) async throws -> Result {
        let began = ContinuousClock.now
        let started = try await start(executable, arguments, environment: environment)
        let timedOut = Lock(false)
        let watchdog = Task {
            try await Task.sleep(for: timeLimit)
            timedOut.withLock { $0 = true }
            kill(started.process.process.processIdentifier, SIGKILL)
        }
        let identifier = started.process.process.processIdentifier
        // Killed, its pipes close and the reads below end: a cancelled call does not wait for the time limit.
        let (stdout, stderr, status) = await withTaskCancellationHandler {
            async let standardOutput = readToEnd(started.output)
            async let standardError = readToEnd(started.errors)
            let (stdout, stderr) = await (standardOutput, standardError)
            return (stdout, stderr, await started.exit())
        } onCancel: {
            kill(identifier, SIGKILL)
        }
        watchdog.cancel()
        try Task.checkCancellation()
        let what = "the end of \(commandLine(started.name, arguments))"
        let killed = timedOut.withLock { $0 }
        WaitTimes.note(what, limit: timeLimit, elapsed: began.duration(to: .now), outcome: killed ? .timedOut : .came)
        if killed {
            throw WaitTimedOut(limit: timeLimit, what: what)
        }
        OutputAttachment.recordProcess(
            started.name, arguments, status: status, standardOutput: stdout, standardError: stderr)
        return Result(status: status, standardOutput: stdout, standardError: stderr)
    }

    /// Starts `executable`, waits until it is ready, runs `body`, then stops the process with `stopSignal`
    /// (SIGKILL once `killAfter` has passed, five seconds unless said otherwise) and waits for it, whether `body`
    /// returned or threw; returns `body`'s result and the process's exit status (137 when it had to be killed, so a
    /// test that expects 0 fails on a program that stops too slowly, or not at all).
    ///
    /// Once the calling task is cancelled, the stop kills the process at once rather than after `killAfter`, and
    /// still waits for its end.
    ///
    /// The process is ready when `isReady` accepts a line of its standard output, or at once when `isReady` is
    /// `nil` (the body then waits for a sign of its own). A process that ends its output before it is ready fails
    /// the call with what it wrote on standard error; so does a body that throws. One not ready within `readyWithin`
    /// is stopped, and the call throws `WaitTimedOut` naming its ready line: a program whose main thread parks where
    /// it never prints fails its test instead of hanging the suite.
    ///
    /// Both outputs are read as they come, standard error from the start and standard output from the ready line on,
    /// so a process never blocks on a full pipe, whatever it writes while the body runs. With `attachingOutput`, what
    /// the process printed after its ready line, every byte, and on standard error is recorded as an attachment of
    /// the running Swift Testing test once it stopped. Leave it off for a process that starts children which outlive
    /// it holding its pipes (gpsfake's gpsd): reading to the end would wait for them.
    public static func withRunningProcess<T: Sendable>(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String?] = [:],
        readyWhen isReady: (@Sendable (String) -> Bool)? = nil,
        readyWithin: Duration = BoundedWaitLimit.program,
        stopSignal: Int32 = SIGTERM,
        killAfter: Duration = .seconds(5),
        attachingOutput: Bool = false,
        _ body: (RunningProcess) async throws -> T
    ) async throws -> (result: T, exitStatus: Int32) {
        let started = try await start(executable, arguments, environment: environment)
        let identifier = started.process.process.processIdentifier
        // Read to its end by a thread of its own, which a child holding the pipe leaves blocked; awaited only by a
        // failure and the attachment.
        let errors = Task { await readToEnd(started.errors) }
        func stop() async -> Int32 {
            kill(identifier, stopSignal)
            // A process that ignores the signal is killed rather than hanging the suite.
            let killer = Task {
                try await Task.sleep(for: killAfter)
                kill(identifier, SIGKILL)
            }
            defer { killer.cancel() }
            return await started.exit()
        }
        func failure(_ error: any Error) async -> any Error {
            let stderr = await errors.value.trimmingCharacters(in: .whitespacesAndNewlines)
            return stderr.isEmpty ? error : Failure(description: "\(error) (\(started.name) wrote: \(stderr))")
        }
        var readyLine: String?
        var readAfterReady: [UInt8] = []
        if let isReady {
            let output = started.output
            let ready: (line: String, rest: [UInt8])?
            do {
                // Bounded by a race, not by ending the output: a child that outlives the process may hold its pipe.
                ready = try await withBoundedWait(
                    readyWithin, what: "the ready line of \(commandLine(started.name, arguments))"
                ) {
                    await readLine(from: output, matching: isReady)
                }
            } catch {
                _ = await stop()
                throw error
            }
            guard let ready else {
                let status = await stop()
                throw await failure(
                    Failure(description: "\(started.name) ended its output before it was ready (status \(status))"))
            }
            (readyLine, readAfterReady) = (ready.line, ready.rest)
        }
        // Read on from the ready line, as the process writes, by a thread of its own (as standard error).
        let output = Task { [readAfterReady] in await readToEnd(started.output, after: readAfterReady) }
        func attachOutput(status: Int32) async {
            guard attachingOutput else { return }
            let (stdout, stderr) = (await output.value, await errors.value)
            OutputAttachment.recordProcess(
                started.name, arguments, status: status, standardOutput: (readyLine.map { $0 + "\n" } ?? "") + stdout,
                standardError: stderr)
        }
        do {
            let result = try await body(RunningProcess(processIdentifier: identifier, readyLine: readyLine))
            let status = await stop()
            await attachOutput(status: status)
            return (result, status)
        } catch {
            let status = await stop()
            let failed = await failure(error)
            await attachOutput(status: status)
            throw failed
        }
    }

    /// How a failure names a run: the program's name and its arguments, as typed.
    static func commandLine(_ name: String, _ arguments: [String]) -> String {
        ([name] + arguments).joined(separator: " ")
    }

    /// A launched process with its pipes and its one awaitable exit.
    private struct Started: Sendable {
        let name: String
        let process: UncheckedProcess
        let output: FileHandle
        let errors: FileHandle
        let termination: AsyncStream<Void>

        /// Waits for the process to end, once, and returns its status as a shell reports it.
        ///
        /// The wait ends only when the process has: a cancelled caller kills it (SIGKILL) and waits on. The stream's
        /// own iteration ends as soon as the waiting task is cancelled, and reading `terminationReason` of a process
        /// still running traps, which took the whole test binary down with every other test's result (a run cancelled
        /// by its test's time limit, say); so the stream is read by a task of its own, which no caller cancels.
        func exit() async -> Int32 {
            let termination = termination
            let ended = Task { for await _ in termination {} }
            let identifier = process.process.processIdentifier
            await withTaskCancellationHandler {
                await ended.value
            } onCancel: {
                kill(identifier, SIGKILL)
            }
            let process = process.process
            return process.terminationReason == .uncaughtSignal
                ? 128 + process.terminationStatus : process.terminationStatus
        }
    }

    /// Starts `executable` with pipes for its output and errors and no input.
    private static func start(_ executable: URL, _ arguments: [String], environment: [String: String?]) async throws
        -> Started
    {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            if executable.path.hasPrefix(notFoundDirectory.path + "/") {
                throw Failure(description: productsDirectoryNotFound)
            }
            throw Failure(description: "no executable \(executable.path); run 'swift build' first")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let (termination, ended) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.finish() }
        let unchecked = UncheckedProcess(process: process)
        try await launch(unchecked)
        return Started(
            name: executable.lastPathComponent,
            process: unchecked,
            output: output.fileHandleForReading,
            errors: errors.fileHandleForReading,
            termination: termination
        )
    }

    /// Starts the process from a thread whose signal mask is empty.
    ///
    /// Linux: `Process` passes the launching thread's signal mask on to the child, and the threads that run Swift
    /// tasks block SIGINT and SIGTERM; a child that does not reset its mask (gpsfake, a Python program) then
    /// ignores the signals that should stop it.
    private static func launch(_ launched: UncheckedProcess) async throws {
        try await DedicatedThread.run {
            var empty = sigset_t()
            sigemptyset(&empty)
            pthread_sigmask(SIG_SETMASK, &empty, nil)
            try launched.process.run()
        }
    }

    /// `read`, the bytes read from `handle` already, and the rest of `handle` to its end, as text.
    private static func readToEnd(_ handle: FileHandle, after read: [UInt8] = []) async -> String {
        await DedicatedThread.run {
            String(decoding: read + handle.readDataToEndOfFile(), as: UTF8.self)
        }
    }

    /// Reads lines from `handle` until one satisfies `isReady`, and returns it with the bytes read after it; `nil`
    /// at the end of the output.
    private static func readLine(from handle: FileHandle, matching isReady: @escaping @Sendable (String) -> Bool)
        async -> (line: String, rest: [UInt8])?
    {
        await DedicatedThread.run {
            var buffer: [UInt8] = []
            // Each byte is looked at once: a line begins at `start`, and no newline is before `searched`.
            var (start, searched) = (0, 0)
            while true {
                if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                    (start, searched) = (newline + 1, newline + 1)
                    if isReady(line) { return (line, Array(buffer[start...])) }
                    continue
                }
                buffer.removeSubrange(..<start)
                (start, searched) = (0, buffer.count)
                let chunk = handle.availableData
                if chunk.isEmpty { return nil }
                buffer.append(contentsOf: chunk)
            }
        }
    }
}

/// Hands a `Process` between threads: it is configured before launch and read only after it has exited.
private struct UncheckedProcess: @unchecked Sendable {
    let process: Process
}
