public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One folder per test run for every file the tests write, gone when the run is: removed as the test process exits,
/// and swept by the next run when the process was killed and could not remove it.
///
/// A test that writes `FileManager.default.temporaryDirectory/places-UUID.json` and removes it in a `defer` leaves it
/// behind whenever the process dies first: a time limit's kill, a crash, Ctrl-C. Here each file lives in
/// `poi-tests-PID` in the temporary directory; the process removes the folder when it exits, and the first use in any
/// later run removes every `poi-tests-PID` folder whose process no longer runs. CI checks that none is left after
/// its tiers (`scripts/ci/stage leftovers`).
public enum TestScratch {
    /// The prefix of every run's folder: `poi-tests-` and the process's identifier.
    public static let prefix = "poi-tests-"

    /// This run's folder, made on first use, after the folders of runs that were killed are swept away.
    public static let folder: URL = {
        let temporary = FileManager.default.temporaryDirectory
        sweep(in: temporary)
        let folder = temporary.appendingPathComponent("\(prefix)\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { TestScratch.removeFolder() }
        return folder
    }()

    /// A path for a new file in this run's folder: `name-UUID.suffix` (`suffix` empty: no extension).
    public static func file(_ name: String, suffix: String = "") -> URL {
        folder.appendingPathComponent("\(name)-\(UUID().uuidString)" + (suffix.isEmpty ? "" : ".\(suffix)"))
    }

    /// A new, empty folder in this run's folder, named `name-UUID`.
    public static func directory(_ name: String) throws -> URL {
        let made = file(name)
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        return made
    }

    /// Removes this run's folder and all it holds (the process is exiting).
    static func removeFolder() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Removes every run's folder in `temporary` whose process no longer runs; returns their names.
    @discardableResult
    static func sweep(in temporary: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        return names.filter { name in
            guard name.hasPrefix(prefix), let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid(),
                kill(pid, 0) == -1, errno == ESRCH
            else { return false }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            return true
        }
    }
}
