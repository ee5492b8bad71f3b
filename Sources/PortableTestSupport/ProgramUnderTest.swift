public import Foundation
import POILock
public import Testing

/// A command-line program that a test runs one of two ways with the same body.
///
/// In process, its entry point is called with the arguments, an environment and two streams that collect what it
/// writes; launched, its built executable runs in a process of its own (through `BuiltProduct`). Either way the run
/// gives a `BuiltProduct.Result`: the exit status and the two outputs, byte for byte.
///
/// It is what Hummingbird's test clients are to a server (`.router` calls the router, `.live` goes through a real
/// socket, one test body for both): in process is fast and needs no build of the executable, so the lower tiers use
/// it; launched is the program as it ships (its `main`, the process's streams and exit) and costs a process, so the
/// end-to-end tier uses it, and runs a few bodies both ways (`@Test(arguments: ProgramUnderTest.Mode.allCases)`) to
/// hold the in-process mode to what the launched program does.
///
/// Both modes give the program the same values of the variables it reads (`variables`): the ones `environment`
/// sets, changed by each run's, and no others. A launched program also inherits the rest of the test process's
/// environment (`PATH`; `LLVM_PROFILE_FILE`, where coverage is measured), never one of `variables`: a variable set
/// for the whole test run (a server's URL for contract tests) does not reach a test that did not ask for it.
public struct ProgramUnderTest: Sendable {
    /// How a run reaches the program.
    public enum Mode: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// Its entry point, called in the test's process.
        case inProcess = "in process"
        /// Its built executable, launched as a process.
        case launched

        /// The mode's name in a test case's description.
        public var testDescription: String { rawValue }
    }

    /// What the entry point gets in process: what a `main` would read from the process, and where it writes.
    public struct Invocation: Sendable {
        /// The arguments, without the program's name.
        public let arguments: [String]
        /// The environment: the program's variables that the run sets, nothing else.
        public let environment: [String: String]
        /// Writes text to the run's standard output, as it is (add the newline yourself, as `print` would).
        public let standardOutput: @Sendable (String) -> Void
        /// Writes text to the run's standard error, as it is.
        public let standardError: @Sendable (String) -> Void
    }

    /// The program's `main` as a function: runs `Invocation` and returns the exit status.
    public typealias EntryPoint = @Sendable (Invocation) async -> Int32

    /// The built executable a launched run starts.
    public let executable: URL
    /// How this value runs the program.
    public let mode: Mode
    /// The environment variables the program reads: a launched run removes the test process's own.
    public let variables: Set<String>
    /// The variables every run sets, before its own changes.
    public let environment: [String: String]
    private let entryPoint: EntryPoint

    /// The program built as `executable`, whose `main` calls `entryPoint`, run in `mode`.
    ///
    /// `variables` lists every environment variable the program reads; `environment` sets some of them for every
    /// run (a test runner's `IS_UNIT_TESTING=1`, say).
    public init(
        executable: URL,
        variables: Set<String>,
        environment: [String: String] = [:],
        mode: Mode,
        entryPoint: @escaping EntryPoint
    ) {
        self.executable = executable
        self.variables = variables
        self.environment = environment
        self.mode = mode
        self.entryPoint = entryPoint
    }

    /// Runs the program with `arguments` and returns when it has ended.
    ///
    /// `environment` changes the program's variables for this run: a value sets one, `nil` removes it. A run that
    /// outlives `timeLimit` fails the call with `WaitTimedOut` naming the run: a launched process is killed; in
    /// process, the entry point is cancelled and left to end by itself, so an entry point that ignores cancellation
    /// still fails its test at the limit.
    public func run(
        _ arguments: [String],
        environment changes: [String: String?] = [:],
        timeLimit: Duration = BoundedWaitLimit.program
    ) async throws -> BuiltProduct.Result {
        switch mode {
        case .inProcess:
            var variables = environment
            for (name, value) in changes { variables[name] = value }
            return try await runInProcess(arguments, environment: variables, timeLimit: timeLimit)
        case .launched:
            var launch = [String: String?](uniqueKeysWithValues: variables.map { ($0, nil) })
            for (name, value) in environment { launch[name] = value }
            for (name, value) in changes { launch[name] = value }
            return try await BuiltProduct.run(executable, arguments, environment: launch, timeLimit: timeLimit)
        }
    }

    private func runInProcess(_ arguments: [String], environment: [String: String], timeLimit: Duration)
        async throws -> BuiltProduct.Result
    {
        let output = Lock("")
        let errors = Lock("")
        let invocation = Invocation(
            arguments: arguments,
            environment: environment,
            standardOutput: { text in output.withLock { $0 += text } },
            standardError: { text in errors.withLock { $0 += text } }
        )
        let entryPoint = self.entryPoint
        let name = "\(executable.lastPathComponent) (in process)"
        let status = try await withBoundedWait(
            timeLimit, what: "the end of \(BuiltProduct.commandLine(name, arguments))"
        ) {
            await entryPoint(invocation)
        }
        let result = BuiltProduct.Result(
            status: status, standardOutput: output.withLock { $0 }, standardError: errors.withLock { $0 })
        OutputAttachment.recordProcess(
            name, arguments, status: status, standardOutput: result.standardOutput,
            standardError: result.standardError)
        return result
    }
}
