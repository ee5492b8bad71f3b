public import POISockets

/// Fails each system call an operation makes, at its first, its second and its last call in turn, each time with a
/// new injector, so that a test sees what every failure path leaves behind: a resource taken before the failure and
/// not given back (a descriptor, an address list) is in the injector's ledger (`FaultInjector.gaveEverythingBack`).
///
/// A dry run with no fault counts the calls of each kind the operation makes; then each kind the test names, with the
/// error it fails with, is failed at call 1, call 2 and its last call (those the dry run made, each once). The
/// operation must end whole, the objects it made closed or stopped, before `check` reads the ledger. Counted through
/// the seam, not from `/proc`, so it holds on macOS too (docs/14-faults-on-purpose.md).
public enum FailurePaths {
    /// One run: the call failed, which of its kind (from 1), and the error it failed with; `nil` call: the dry run.
    public struct Trial: Sendable, CustomStringConvertible {
        /// The kind of call failed; `nil` for the dry run, which fails none.
        public let call: SystemCallFaults.Call?
        /// Which call of that kind failed, counted from 1.
        public let number: Int
        /// The error it failed with.
        public let code: Int32

        /// The trial as a failure names it: `socket #2 failing with 24`.
        public var description: String {
            call.map { "\($0.rawValue) #\(number) failing with \(code)" } ?? "no call failing"
        }
    }

    /// The calls `operation` makes with no fault, by kind.
    ///
    /// When `operation` throws, its error reaches the caller as it is and nothing is counted; each call counts with an
    /// injector of its own, so a later call counts afresh.
    public static func calls(of operation: (FaultInjector) throws -> Void) rethrows -> [SystemCallFaults.Call: Int] {
        let injector = FaultInjector()
        try operation(injector)
        return Dictionary(
            uniqueKeysWithValues: SystemCallFaults.Call.allCases.map { ($0, injector.count(of: $0)) }.filter {
                $0.1 > 0
            })
    }

    /// Runs `operation` dry, then once per call failed, with `check` after each run.
    ///
    /// For each kind of call in `failing` that the dry run made, a run fails its first, its second and its last call
    /// with the kind's error, each with a new injector. Returns the trials, the dry run first.
    ///
    /// An `operation` or a `check` that throws ends the call there: its error reaches the caller as it is, no later
    /// trial runs, and a run whose operation threw is not checked. Nothing outlives the call, so a later one starts
    /// afresh.
    @discardableResult
    public static func each(
        failing codes: [SystemCallFaults.Call: Int32], operation: (FaultInjector) throws -> Void,
        check: (FaultInjector, Trial) throws -> Void
    ) throws -> [Trial] {
        let dry = FaultInjector()
        try operation(dry)
        var trials = [Trial(call: nil, number: 0, code: 0)]
        try check(dry, trials[0])
        for call in SystemCallFaults.Call.allCases {
            guard let code = codes[call] else { continue }
            let made = dry.count(of: call)
            for number in Set([1, 2, made].filter { $0 >= 1 && $0 <= made }).sorted() {
                let injector = FaultInjector(.fail(call, with: code, calls: number...number))
                try operation(injector)
                let trial = Trial(call: call, number: number, code: code)
                trials.append(trial)
                try check(injector, trial)
            }
        }
        return trials
    }
}
