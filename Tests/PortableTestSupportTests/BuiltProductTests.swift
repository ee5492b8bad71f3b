import Foundation
import POILock
import Testing

@testable import PortableTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process helper itself, on the system's shell: what a run gives back, its time limit, and a process kept
/// running for a body, ready by a line of output and stopped however the body ends.
@Suite("BuiltProduct", .timeLimit(.minutes(1)))
struct BuiltProductTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    /// The line the shell scripts print when they are ready.
    static let ready: @Sendable (String) -> Bool = { $0 == "ready" }
    /// Says "starting" and its process identifier, never "ready": a program parked before it prints what a test waits
    /// for.
    static let parked = "echo starting $$; exec tail -f /dev/null"

    @Test("The image found is the test image that holds this code and these tests, in the products folder")
    func productsDirectory() throws {
        // PortableTestSupport is linked into the tests' own image: Linux's .xctest executable, Swift Build's library,
        // the executable of macOS's .xctest bundle; never the process's runner or helper unless it is that image.
        let image = try #require(BuiltProduct.image)
        #expect(image == BuiltProduct.loadedImage(containing: #dsohandle))
        #expect(image.path.hasPrefix(BuiltProduct.productsDirectory.path + "/"))
        let names = try FileManager.default.contentsOfDirectory(atPath: BuiltProduct.productsDirectory.path)
        #expect(names.contains { $0.hasSuffix(".xctest") || $0.hasSuffix("-test-runner") })
    }

    @Test("The image that holds an address is the library's that holds it, not the process's executable")
    func imageOfAnAddress() throws {
        // getpid is the C library's (glibc's libc.so.6, macOS's libsystem_kernel.dylib, in the shared cache there).
        let getpid = try #require(dlsym(dlopen(nil, RTLD_NOW), "getpid"))
        let image = try #require(BuiltProduct.loadedImage(containing: getpid))
        #expect(image.lastPathComponent.hasPrefix("lib"))
        #expect(image != Bundle.main.executableURL?.resolvingSymlinksInPath())
        #expect(image != BuiltProduct.image)
    }

    @Test(
        "The products folder of an image: the folder of the .xctest bundle it is the executable of, else its own",
        arguments: [
            // macOS: xctest, or Swift Testing's helper, loads the bundle; the image is the bundle's executable.
            (
                "/p/.build/arm64-apple-macosx/debug/PointsOfInterestPackageTests.xctest/Contents/MacOS/"
                    + "PointsOfInterestPackageTests",
                "/p/.build/arm64-apple-macosx/debug"
            ),
            // Linux: the test executable, a file named .xctest.
            (
                "/p/.build/x86_64-unknown-linux-gnu/debug/PointsOfInterestPackageTests.xctest",
                "/p/.build/x86_64-unknown-linux-gnu/debug"
            ),
            // Swift Build on Linux: a runner per test target, and the library of the target's code it loads.
            ("/p/.build/out/Products/Debug-linux/PortableTestSupportTests.so", "/p/.build/out/Products/Debug-linux"),
            (
                "/p/.build/out/Products/Debug-linux/PortableTestSupportTests-test-runner",
                "/p/.build/out/Products/Debug-linux"
            ),
            // A library in a plain folder.
            ("/usr/local/lib/libPortableTestSupport.so", "/usr/local/lib"),
            // Spaces, and a path that is not standard.
            (
                "/Users/Jane Doe/My Projects/.build/arm64-apple-macosx/debug/My Tests.xctest/Contents/MacOS/My Tests",
                "/Users/Jane Doe/My Projects/.build/arm64-apple-macosx/debug"
            ),
            ("/p/.build/debug/./X.xctest/Contents/MacOS/../MacOS/X", "/p/.build/debug"),
            // A folder whose name holds "xctest" but not as its extension is no bundle.
            ("/p/notxctest/Contents/MacOS/Runner", "/p/notxctest/Contents/MacOS"),
            ("/p/X.xctests/Contents/MacOS/X", "/p/X.xctests/Contents/MacOS"),
            // A project folder named .xctest: the bundle is the one the image sits in, nearest the image.
            (
                "/Users/x/proj.xctest/.build/arm64-apple-macosx/debug/PointsOfInterestPackageTests.xctest/Contents/"
                    + "MacOS/PointsOfInterestPackageTests",
                "/Users/x/proj.xctest/.build/arm64-apple-macosx/debug"
            ),
            (
                "/home/x/proj.xctest/.build/x86_64-unknown-linux-gnu/debug/PointsOfInterestPackageTests.xctest",
                "/home/x/proj.xctest/.build/x86_64-unknown-linux-gnu/debug"
            ),
            (
                "/home/x/proj.xctest/.build/out/Products/Debug-linux/X.so",
                "/home/x/proj.xctest/.build/out/Products/Debug-linux"
            ),
        ])
    func productsDirectoryOfImage(image: String, products: String) {
        #expect(BuiltProduct.productsDirectory(ofImage: URL(fileURLWithPath: image)).path == products)
    }

    @Test("An installed program is the first executable of its name in the folders searched, else none")
    func installedProgram() throws {
        let root = TestScratch.file("installed")
        defer { try? FileManager.default.removeItem(at: root) }
        let (first, second, plain) = ("first", "second", "plain")
        for folder in [first, second, plain] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for (folder, mode) in [(second, 0o755), (plain, 0o644)] {
            let file = root.appendingPathComponent(folder).appendingPathComponent("daemon")
            #expect(
                FileManager.default.createFile(
                    atPath: file.path, contents: Data(), attributes: [.posixPermissions: mode]))
        }
        let folders = [plain, first, second].map { root.appendingPathComponent($0).path }
        // Not the file that cannot be run, not a folder without it: the executable, wherever it is in the list.
        #expect(BuiltProduct.installedProgram("daemon", in: folders)?.path == "\(folders[2])/daemon")
        #expect(BuiltProduct.installedProgram("daemon", in: Array(folders.prefix(2))) == nil)
        #expect(BuiltProduct.installedProgram("sh")?.lastPathComponent == "sh")  // PATH's folders by default
        // After PATH: Debian's folders, /usr/sbin first (on no user's PATH there), then Homebrew's, either Mac's.
        #expect(Array(BuiltProduct.programFolders.prefix(2)) == ["/usr/sbin", "/usr/bin"])
        #expect(["/opt/homebrew/bin", "/usr/local/bin"].allSatisfy(BuiltProduct.programFolders.contains))
    }

    @Test("A run gives the exit status and both outputs, in the environment it changed")
    func run() async throws {
        // A variable of the test process's own, which the run removes; its name is one the shell can read.
        let removed = try #require(
            ProcessInfo.processInfo.environment.keys.sorted().first {
                $0.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_]*/) != nil
            })
        let script = "printf 'out %s %s' \"$ADDED\" \"${\(removed)-removed}\"; printf err >&2; exit 3"
        let result = try await BuiltProduct.run(
            Self.shell, ["-c", script], environment: ["ADDED": "added", removed: nil])
        #expect(result == BuiltProduct.Result(status: 3, standardOutput: "out added removed", standardError: "err"))
    }

    @Test("A run that outlives its time limit is killed, and the call throws WaitTimedOut naming the run")
    func timeLimit() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        // `tail -f` never ends by itself; a limit of zero kills it at once.
        await #expect(throws: WaitTimedOut(limit: .zero, what: "the end of sh -c exec tail -f /dev/null")) {
            try await BuiltProduct.run(Self.shell, ["-c", "exec tail -f /dev/null"], timeLimit: .zero)
        }
        #expect(clock.now - start < .seconds(10), "the process was not killed")
    }

    @Test(
        "A run cancelled while its program runs kills it and throws CancellationError, its outputs open or closed",
        arguments: ["exec tail -f /dev/null", "exec >&- 2>&-; exec sleep 60"]
    )
    func cancelledRun(script: String) async throws {
        // Cancelled at once: the launch does not look at cancellation, so the program starts, and the cancel lands
        // on the reads of its outputs (open) or on the wait for its end (closed, as the program closed them; sleep,
        // as tail fails on a closed output). The wait's bound, 10 s, is half the run's time limit it once waited for.
        let run = Task { try await BuiltProduct.run(Self.shell, ["-c", script]) }
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.boundedValue("the cancelled run's end") }
    }

    @Test("withRunningProcess cancelled: the stop kills a process that ignores its signal at once, not after killAfter")
    func cancelledStop() async throws {
        let clock = ContinuousClock()
        let identifier = Lock<Int32?>(nil)
        // The body cancels its own task, as a test's time limit would while a body runs; the shell ignores SIGTERM,
        // so only the cancellation's kill ends it before killAfter.
        let stopped = Task {
            try await BuiltProduct.withRunningProcess(
                Self.shell, ["-c", "trap '' TERM; echo ready; exec tail -f /dev/null"],
                readyWhen: Self.ready, killAfter: .seconds(30)
            ) { process in
                identifier.withLock { $0 = process.processIdentifier }
                withUnsafeCurrentTask { $0?.cancel() }
                return clock.now
            }
        }
        // Bounded by 10 s, a third of the killAfter the stop once waited for.
        let (cancelled, status) = try await stopped.boundedValue("the cancelled stop's end")
        #expect(status == 128 + SIGKILL)
        #expect(clock.now - cancelled < .seconds(10), "the stop waited for killAfter (30 s)")
        let process = try #require(identifier.withLock { $0 })
        #expect(kill(process, 0) == -1 && errno == ESRCH, "the process was not stopped")
    }

    @Test("The bounds a test gets when it names none: 10 s in process, 20 s for a launched program")
    func defaultBounds() {
        #expect(BoundedWaitLimit.standard == .seconds(10))
        #expect(BoundedWaitLimit.program == .seconds(20))
    }

    @Test("A process not ready within its bound is stopped, and the call throws WaitTimedOut naming its ready line")
    func notReadyInTime() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let ranBody = Lock(false)
        let started = Lock<pid_t?>(nil)
        let readyOrNoted: @Sendable (String) -> Bool = { line in
            if line.hasPrefix("starting ") { started.withLock { $0 = pid_t(line.dropFirst(9)) } }
            return Self.ready(line)
        }
        await #expect(throws: WaitTimedOut(limit: .milliseconds(100), what: "the ready line of sh -c \(Self.parked)")) {
            try await BuiltProduct.withRunningProcess(
                Self.shell, ["-c", Self.parked], readyWhen: readyOrNoted, readyWithin: .milliseconds(100)
            ) { _ in
                ranBody.withLock { $0 = true }
            }
        }
        #expect(!ranBody.withLock { $0 })
        // Read before the bound when the machine is not starved (nearly always): then the process must be gone.
        if let identifier = started.withLock({ $0 }) {
            #expect(kill(identifier, 0) == -1 && errno == ESRCH, "the process was not stopped")
        }
        #expect(clock.now - start < .seconds(10), "the stop took too long")
    }

    @Test("withRunningProcess: ready at the line asked for, stopped by its signal when the body returns")
    func runningProcess() async throws {
        let (identifier, status) = try await BuiltProduct.withRunningProcess(
            Self.shell, ["-c", "echo starting; echo ready; exec tail -f /dev/null"], readyWhen: Self.ready
        ) { process in
            #expect(process.readyLine == "ready")
            #expect(kill(process.processIdentifier, 0) == 0, "the process runs while the body does")
            return process.processIdentifier
        }
        #expect(status == 128 + SIGTERM)
        #expect(kill(identifier, 0) == -1, "the process was stopped")
    }

    @Test("withRunningProcess kills a process that outlives its stop signal by killAfter: 137, as a shell says it")
    func killedAfter() async throws {
        let clock = ContinuousClock()
        // The shell ignores SIGTERM, and so does tail, which it becomes (an ignored signal stays ignored across exec).
        // The stop is timed from the body's end: the start of a shell on a busy machine is not the stop's time.
        let (stopping, status) = try await BuiltProduct.withRunningProcess(
            Self.shell, ["-c", "trap '' TERM; echo ready; exec tail -f /dev/null"], readyWhen: Self.ready,
            killAfter: .milliseconds(100)
        ) { _ in clock.now }
        #expect(status == 128 + SIGKILL)
        #expect(clock.now - stopping < .seconds(4), "killed after the default five seconds, not after killAfter")
    }

    @Test("withRunningProcess stops its process when the body throws, and rethrows what the body threw")
    func bodyThrows() async throws {
        struct Thrown: Error {}
        let identifier = Lock<Int32?>(nil)
        await #expect(throws: Thrown.self) {
            _ = try await BuiltProduct.withRunningProcess(
                Self.shell, ["-c", "echo ready; exec tail -f /dev/null"], readyWhen: Self.ready
            ) { process in
                identifier.withLock { $0 = process.processIdentifier }
                throw Thrown()
            }
        }
        let stopped = try #require(identifier.withLock { $0 })
        #expect(kill(stopped, 0) == -1, "the process was stopped")
    }

    @Test("withRunningProcess whose body throws: standard error is in the failure and in the attachment")
    func bodyThrowsAttachesErrors() async throws {
        struct Thrown: Error {}
        let attached = Lock<[String]>([])
        let record: @Sendable (String, String) -> Void = { _, text in attached.withLock { $0.append(text) } }
        await #expect {
            try await OutputAttachment.$recorded.withValue(record) {
                _ = try await BuiltProduct.withRunningProcess(
                    Self.shell, ["-c", "echo trouble >&2; echo ready; exec tail -f /dev/null"], readyWhen: Self.ready,
                    attachingOutput: true
                ) { _ in throw Thrown() }
            }
        } throws: { error in
            (error as? BuiltProduct.Failure)?.description.contains("(sh wrote: trouble)") == true
        }
        let texts = attached.withLock { $0 }
        try #require(texts.count == 1)
        #expect(texts[0].hasSuffix("--- standard output\nready\n\n--- standard error\ntrouble\n"), "\(texts[0])")
    }

    @Test("A process that ends before it is ready fails the call with what it wrote on standard error")
    func endsBeforeReady() async throws {
        await #expect {
            _ = try await BuiltProduct.withRunningProcess(
                Self.shell, ["-c", "echo cannot start >&2; exit 2"], readyWhen: Self.ready
            ) { _ in }
        } throws: { error in
            let description = (error as? BuiltProduct.Failure)?.description ?? ""
            return description.contains("ended its output before it was ready (status 2)")
                && description.contains("cannot start")
        }
    }

    // MARK: Output around a pipe's buffer

    /// Sizes around the 64 KiB a pipe holds on Linux, and many times over it.
    static let pipeSizes = [65_535, 65_536, 65_537, 1 << 20]

    /// `count` bytes of `line` and a newline, over and over: text in which a byte lost, doubled or moved shows.
    static func pattern(_ count: Int, of line: String = "0123456789abcdef") -> String {
        let lines = String(repeating: line + "\n", count: count / (line.utf8.count + 1) + 1)
        return String(decoding: lines.utf8.prefix(count), as: UTF8.self)
    }

    /// A new file of the run's scratch folder that holds `text`, for a program to `cat`.
    static func scratchFile(_ text: String) throws -> URL {
        let file = TestScratch.file("output")
        try Data(text.utf8).write(to: file)
        return file
    }

    /// The offset of the first byte where `text` differs from `expected`, or `nil` when they are the same: a failure
    /// names a place, not a megabyte of text.
    static func firstDifference(_ text: some StringProtocol, _ expected: String) -> Int? {
        guard String(text) != expected else { return nil }
        let (got, wanted) = (Array(text.utf8), Array(expected.utf8))
        let differing = zip(got, wanted).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        return differing ?? (got.count == wanted.count ? nil : min(got.count, wanted.count))
    }

    @Test(
        "A run gives every byte of both outputs, standard error written first, around 64 KiB and past it",
        arguments: pipeSizes)
    func largeOutputs(size: Int) async throws {
        let (output, errors) = (Self.pattern(size), Self.pattern(size, of: "fedcba9876543210"))
        let files = [try Self.scratchFile(errors), try Self.scratchFile(output)]
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        // Standard error first, whole: a run that read standard output to its end before standard error would wait
        // for ever on a program blocked on the full pipe of its standard error.
        let result = try await BuiltProduct.run(
            Self.shell, ["-c", #"cat "$1" >&2; cat "$2""#, "sh"] + files.map(\.path))
        #expect(result.status == 0)
        #expect(Self.firstDifference(result.standardOutput, output) == nil)
        #expect(Self.firstDifference(result.standardError, errors) == nil)
    }

    @Test(
        "withRunningProcess reads its ready line after output around 64 KiB and past it, the line as long",
        arguments: pipeSizes)
    func readyAfterLargeOutput(size: Int) async throws {
        let before = Self.pattern(size)
        let readyLine = String(repeating: "x", count: size - 5) + "ready"
        let file = try Self.scratchFile(before + "\n" + readyLine + "\n")
        defer { try? FileManager.default.removeItem(at: file) }
        let seen = Lock<[String]>([])
        let isReady: @Sendable (String) -> Bool = { line in
            seen.withLock { $0.append(line) }
            return line.hasSuffix("ready")
        }
        let (ready, status) = try await BuiltProduct.withRunningProcess(
            Self.shell, ["-c", #"cat "$1"; exec tail -f /dev/null"#, "sh", file.path], readyWhen: isReady
        ) { $0.readyLine }
        #expect(status == 128 + SIGTERM)
        #expect(Self.firstDifference(try #require(ready), readyLine) == nil)
        let lines = seen.withLock { $0 }.joined(separator: "\n")
        #expect(Self.firstDifference(lines, before + "\n" + readyLine) == nil, "the lines seen before the ready line")
    }

    @Test(
        "withRunningProcess reads and attaches every byte written after its ready line, and on standard error before it",
        arguments: pipeSizes)
    func attachedOutputAroundReady(size: Int) async throws {
        let (after, errors) = (Self.pattern(size), Self.pattern(size, of: "fedcba9876543210"))
        let written = TestScratch.file("written", suffix: "fifo")
        try #require(mkfifo(written.path, 0o600) == 0)
        let files = [try Self.scratchFile(errors), try Self.scratchFile(after), written]
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        // Standard error more than fills its pipe before the ready line, standard output after it while the body runs;
        // the program then says on the FIFO that it wrote everything, which it can only when both are read as they
        // come.
        let script = #"cat "$1" >&2; echo ready; cat "$2"; echo written > "$3"; exec tail -f /dev/null"#
        let attached = Lock<[String]>([])
        let record: @Sendable (String, String) -> Void = { _, text in attached.withLock { $0.append(text) } }
        let (_, status) = try await OutputAttachment.$recorded.withValue(record) {
            try await BuiltProduct.withRunningProcess(
                Self.shell, ["-c", script, "sh"] + files.map(\.path), readyWhen: Self.ready, attachingOutput: true
            ) { _ in
                // Opening the FIFO waits for the program to open it to write.
                let word = try await boundedBlockingCall("the program's word that it wrote all its output") {
                    FileHandle(forReadingAtPath: written.path)?.readDataToEndOfFile()
                }
                #expect(word == Data("written\n".utf8))
            }
        }
        #expect(status == 128 + SIGTERM)
        let texts = attached.withLock { $0 }
        try #require(texts.count == 1)
        let outputs = try #require(texts[0].range(of: "--- standard output\n")).upperBound
        let expected = "ready\n" + after + "\n--- standard error\n" + errors
        #expect(Self.firstDifference(texts[0][outputs...], expected) == nil, "the attachment's two outputs")
    }

    @Test("A product of a products folder that was not found fails the call with why")
    func productsDirectoryNotFound() async throws {
        await #expect {
            _ = try await BuiltProduct.run(BuiltProduct.notFoundDirectory.appendingPathComponent("poi"), [])
        } throws: { error in
            (error as? BuiltProduct.Failure)?.description == BuiltProduct.productsDirectoryNotFound
        }
    }

    @Test("An executable that is not there fails the call with how to build it")
    func missingExecutable() async throws {
        await #expect {
            _ = try await BuiltProduct.run(BuiltProduct.product("no-such-product"), [])
        } throws: { error in
            (error as? BuiltProduct.Failure)?.description.contains("no-such-product; run 'swift build' first") == true
        }
    }
}
