import Foundation
import PortableTestSupport
import Testing

/// One program two ways: the system's `printenv`, and its twin in Swift, each run by the same test bodies in process
/// and launched, as a package's tests run its own command-line program.
///
/// `printenv NAME` prints the variable's value and exits 0, or prints nothing and exits 1 when it is not set: a
/// program whose output depends on its arguments and its environment, on Linux and macOS alike. (A script written for
/// the test would do as well, but a file written and then run at once can fail with "Text file busy" on Linux while
/// other tests start processes: a child forked meanwhile holds the file open for writing.)
@Suite("ProgramUnderTest", .timeLimit(.minutes(1)))
struct ProgramUnderTestTests {
    /// `printenv` in `mode`, reading `variables`, with `GREETING=hello` unless a run changes it.
    static func printenv(_ mode: ProgramUnderTest.Mode, reading variables: Set<String> = ["GREETING"])
        -> ProgramUnderTest
    {
        ProgramUnderTest(
            executable: URL(fileURLWithPath: "/usr/bin/printenv"), variables: variables,
            environment: ["GREETING": "hello"], mode: mode
        ) { invocation in
            guard let name = invocation.arguments.first, let value = invocation.environment[name] else { return 1 }
            invocation.standardOutput(value + "\n")
            return 0
        }
    }

    /// `tail -f /dev/null` in `mode`: a program that never ends by itself; in process, one that waits on a stream
    /// nobody feeds until the run is cancelled.
    static func endless(_ mode: ProgramUnderTest.Mode) -> ProgramUnderTest {
        ProgramUnderTest(executable: URL(fileURLWithPath: "/usr/bin/tail"), variables: [], mode: mode) { _ in
            let (stream, continuation) = AsyncStream<Never>.makeStream()
            for await _ in stream {}  // bounded: a program that runs until its run is cancelled, as the tests do
            continuation.finish()
            return 0
        }
    }

    @Test(
        "The arguments, the variables set, changed and removed, the status and the output",
        arguments: ProgramUnderTest.Mode.allCases)
    func oneBodyBothWays(mode: ProgramUnderTest.Mode) async throws {
        let printenv = Self.printenv(mode)
        #expect(
            try await printenv.run(["GREETING"]) == .init(status: 0, standardOutput: "hello\n", standardError: ""))
        #expect(try await printenv.run(["GREETING"], environment: ["GREETING": "hi"]).standardOutput == "hi\n")
        #expect(
            try await printenv.run(["GREETING"], environment: ["GREETING": nil])
                == .init(status: 1, standardOutput: "", standardError: ""))
    }

    @Test(
        "A variable the program reads has the run's value only, never the test process's",
        arguments: ProgramUnderTest.Mode.allCases)
    func ownVariablesOnly(mode: ProgramUnderTest.Mode) async throws {
        let inherited = try #require(Self.variableOfTheTestProcess())
        let printenv = Self.printenv(mode, reading: ["GREETING", inherited])
        #expect(try await printenv.run([inherited]) == .init(status: 1, standardOutput: "", standardError: ""))
        #expect(try await printenv.run([inherited], environment: [inherited: "set"]).standardOutput == "set\n")
    }

    @Test("It keeps what it was made with; each mode is named in a case's description by its own words")
    func madeWith() async throws {
        let entryPoint: ProgramUnderTest.EntryPoint = { invocation in
            invocation.standardError("to errors")
            return Int32(invocation.arguments.count)
        }
        let program = ProgramUnderTest(
            executable: URL(fileURLWithPath: "/usr/bin/true"), variables: ["A", "B"], environment: ["A": "1"],
            mode: .inProcess, entryPoint: entryPoint)
        #expect(program.executable.path == "/usr/bin/true")
        #expect(program.variables == ["A", "B"] && program.environment == ["A": "1"] && program.mode == .inProcess)
        #expect(try await program.run(["x", "y"]) == .init(status: 2, standardOutput: "", standardError: "to errors"))
        #expect(ProgramUnderTest.Mode.allCases.map(\.testDescription) == ["in process", "launched"])
    }

    @Test("Launched, the program inherits the test process's other variables (PATH, a coverage profile's path)")
    func launchedInheritsTheRest() async throws {
        let inherited = try #require(Self.variableOfTheTestProcess())
        let value = try #require(ProcessInfo.processInfo.environment[inherited])
        #expect(try await Self.printenv(.launched).run([inherited]).standardOutput == value + "\n")
    }

    @Test("A run over its time limit fails the call", arguments: ProgramUnderTest.Mode.allCases)
    func timeLimit(mode: ProgramUnderTest.Mode) async throws {
        await #expect {
            _ = try await Self.endless(mode).run(["-f", "/dev/null"], timeLimit: .zero)
        } throws: { error in
            let what = (error as? WaitTimedOut)?.what ?? ""
            return what.hasPrefix("the end of tail") && what.hasSuffix(" -f /dev/null")
        }
    }

    /// A program that copies two files in `mode`, the first to standard error, the second to standard output.
    ///
    /// Launched, `sh -c 'cat "$1" >&2; cat "$2"' sh ERRORS OUTPUT`; in process, an entry point that writes the same
    /// files in pieces of a thousand bytes, as a program writes line after line.
    static func cat(_ mode: ProgramUnderTest.Mode) -> ProgramUnderTest {
        ProgramUnderTest(executable: URL(fileURLWithPath: "/bin/sh"), variables: [], mode: mode) { invocation in
            let files = invocation.arguments.suffix(2).map { try? Data(contentsOf: URL(fileURLWithPath: $0)) }
            guard files.count == 2, let errors = files[0], let output = files[1] else { return 1 }
            for (text, write) in [(errors, invocation.standardError), (output, invocation.standardOutput)] {
                for start in stride(from: 0, to: text.count, by: 1000) {
                    write(String(decoding: text[start..<min(start + 1000, text.count)], as: UTF8.self))
                }
            }
            return 0
        }
    }

    @Test(
        "Every byte of both outputs, around a pipe's 64 KiB and past it",
        arguments: ProgramUnderTest.Mode.allCases, BuiltProductTests.pipeSizes)
    func largeOutputs(mode: ProgramUnderTest.Mode, size: Int) async throws {
        let output = BuiltProductTests.pattern(size)
        let errors = BuiltProductTests.pattern(size, of: "fedcba9876543210")
        let files = [try BuiltProductTests.scratchFile(errors), try BuiltProductTests.scratchFile(output)]
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        let result = try await Self.cat(mode).run(["-c", #"cat "$1" >&2; cat "$2""#, "sh"] + files.map(\.path))
        #expect(result.status == 0)
        #expect(BuiltProductTests.firstDifference(result.standardOutput, output) == nil)
        #expect(BuiltProductTests.firstDifference(result.standardError, errors) == nil)
    }

    @Test(
        "A run whose task is cancelled throws CancellationError, the program ended",
        arguments: ProgramUnderTest.Mode.allCases)
    func cancelled(mode: ProgramUnderTest.Mode) async throws {
        // Cancelled at once, the cancel lands before or while the program runs: either way the run ends with
        // CancellationError, launched by killing the process, in process by cancelling the entry point.
        let run = Task { try await Self.endless(mode).run(["-f", "/dev/null"]) }
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.boundedValue("the cancelled run's end") }
    }

    /// A variable the test process has (HOME where there is one) whose value is one line, other than GREETING.
    static func variableOfTheTestProcess() -> String? {
        let candidates = ProcessInfo.processInfo.environment.filter { name, value in
            name != "GREETING" && !value.isEmpty && !value.contains("\n")
        }
        return candidates["HOME"] != nil ? "HOME" : candidates.keys.sorted().first
    }
}
