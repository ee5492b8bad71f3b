import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the bounded waits write how long each took, so that their bounds come from measurements.
///
/// When the variable `POI_WAIT_TIMES` names a file, every bounded wait that ends appends a line to it: its bound,
/// the seconds it took, how it ended and what it waited for, separated by tabs. `scripts/tool wait-times` reads the
/// files of a run (the tiers under load, under each sanitizer) and says, for each bound, the slowest wait it held and
/// how many times over that the bound is.
///
/// Off unless the variable is set: the variable is read once, and a wait then pays one test of it.
enum WaitTimes {
    /// How a bounded wait ended.
    enum Outcome: String {
        /// What it waited for came.
        case came
        /// Its own bound passed first.
        case timedOut = "timed-out"
        /// It threw something else, a time-out of a wait inside it included.
        case failed
    }

    /// The file named by `POI_WAIT_TIMES`, read once.
    static let path: String? = ProcessInfo.processInfo.environment["POI_WAIT_TIMES"].flatMap { $0.isEmpty ? nil : $0 }

    /// Appends the wait for `what`, bounded by `limit`, which took `elapsed` and ended as `outcome`.
    static func note(_ what: String?, limit: Duration, elapsed: Duration, outcome: Outcome, into file: String? = path) {
        guard let path = file else { return }
        let name = (what ?? "an unnamed wait").replacingOccurrences(of: "\t", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
        let line = "\(seconds(limit))\t\(seconds(elapsed))\t\(outcome.rawValue)\t\(name)\n"
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // One write of a short line with O_APPEND: lines of parallel tests do not interleave.
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }

    /// `timedOut` when `error` is this wait's own time-out (not one of a wait inside it, passed on), else `failed`.
    static func outcome(of error: any Error, _ what: String?, _ limit: Duration) -> Outcome {
        guard let timedOut = error as? WaitTimedOut, timedOut.what == what, timedOut.limit == limit else {
            return .failed
        }
        return .timedOut
    }

    /// `duration` in seconds, to the microsecond.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        return String(format: "%.6f", Double(whole) + Double(attoseconds) / 1e18)
    }

    /// Runs `wait`, timing it on the continuous clock, and notes how it ended.
    static func timing<T>(
        _ what: String?, limit: Duration, into file: String? = path, _ wait: () async throws -> T
    ) async throws -> T {
        guard file != nil else { return try await wait() }
        let started = ContinuousClock.now
        let result: Result<T, any Error>
        do { result = .success(try await wait()) } catch { result = .failure(error) }
        return try noted(result, what, limit: limit, since: started, into: file)
    }

    /// `timing(_:limit:_:)` for a synchronous wait.
    static func timingSync<T>(
        _ what: String?, limit: Duration, into file: String? = path, _ wait: () throws -> T
    ) throws -> T {
        guard file != nil else { return try wait() }
        let started = ContinuousClock.now
        return try noted(Result(catching: wait), what, limit: limit, since: started, into: file)
    }

    /// Notes how a wait begun at `started` ended, and returns its value or throws its error.
    private static func noted<T>(
        _ result: Result<T, any Error>, _ what: String?, limit: Duration, since started: ContinuousClock.Instant,
        into file: String?
    ) throws -> T {
        let elapsed = started.duration(to: .now)
        switch result {
        case .success(let value):
            note(what, limit: limit, elapsed: elapsed, outcome: .came, into: file)
            return value
        case .failure(let error):
            note(what, limit: limit, elapsed: elapsed, outcome: outcome(of: error, what, limit), into: file)
            throw error
        }
    }
}
