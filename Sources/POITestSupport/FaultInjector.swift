import POILock
public import POISockets

/// Makes system calls fail on purpose, by rules, for the sockets a test gives its `faults` to.
///
/// A loopback never fails, so the code that handles an interrupted call, a short write, a reset or a process with no
/// descriptor left never runs in a test unless a test makes it run. The injector counts each kind of call the
/// sockets carrying its `faults` make (a listener, the connections it accepts, a server configured with it) and
/// applies the first rule that names the call and its number:
///
///     let injector = FaultInjector(.fail(.accept, with: EMFILE, calls: 2...3), .shorten(.send, to: 7))
///     let listener = try SocketListener(faults: injector.faults)
///
/// Only those sockets see the faults, so tests that inject them run in parallel with every other test. Use it with
/// `withFaults(_:_:)` in XCTest or Swift Testing, or the `.injecting(_:)` trait in Swift Testing.
public final class FaultInjector: Sendable {
    /// One rule: which calls it applies to and what they do instead.
    public struct Rule: Sendable, CustomStringConvertible {
        /// The kind of call.
        public var call: SystemCallFaults.Call
        /// Which calls of that kind, counted from 1 for the sockets carrying the injector's faults.
        public var calls: ClosedRange<Int>
        /// What they do.
        public var action: SystemCallFaults.Action

        /// `calls` of `call` (every one by default) do `action`.
        public init(
            _ call: SystemCallFaults.Call, _ action: SystemCallFaults.Action, calls: ClosedRange<Int> = 1...Int.max
        ) {
            self.call = call
            self.action = action
            self.calls = calls
        }

        /// `calls` of `call` fail with the error number `code` (an `EAI_…` code for `.resolve`).
        public static func fail(_ call: SystemCallFaults.Call, with code: Int32, calls: ClosedRange<Int> = 1...Int.max)
            -> Rule
        {
            Rule(call, .fail(code), calls: calls)
        }

        /// `calls` of `call` (`.send` or `.receive`) move at most `bytes` bytes each: short writes or reads.
        public static func shorten(_ call: SystemCallFaults.Call, to bytes: Int, calls: ClosedRange<Int> = 1...Int.max)
            -> Rule
        {
            Rule(call, .atMost(bytes), calls: calls)
        }

        /// The rule as a test's failure message says it: `accept calls 2...3: fail(24)`.
        public var description: String {
            let which = calls.upperBound == .max ? "from call \(calls.lowerBound)" : "calls \(calls)"
            return "\(call.rawValue) \(which): \(action)"
        }
    }

    private let rules: [Rule]
    /// Every call counted, and those a rule changed: one lock, so that no reader sees a call counted and not yet
    /// decided.
    private let tally = Lock<(counts: [SystemCallFaults.Call: Int], applied: [SystemCallFaults.Call: Int])>(
        ([:], [:]), name: "FaultInjector.tally")
    private let ledger = Lock(Ledger())

    /// An injector with `rules`; the first rule that applies to a call decides it.
    public init(_ rules: Rule...) {
        self.rules = rules
    }

    /// An injector with `rules`; the first rule that applies to a call decides it.
    public init(rules: [Rule]) {
        self.rules = rules
    }

    /// The faults to give the sockets under test (`SocketListener(faults:)`, `Socket.connect(…, faults:)`,
    /// `StubServer.Configuration.faults`).
    public var faults: SystemCallFaults {
        SystemCallFaults(
            { [self] call in decide(call) },
            recording: { [ledger] resource in
                ledger.withLock { $0.record(resource) }
            })
    }

    /// The descriptors the sockets carrying the faults made (`socket`, `accept`, `pipe`) and have not closed, lowest
    /// first: empty once every path that took one gave it back.
    public var openDescriptors: [Int32] {
        ledger.withLock { $0.open.sorted() }
    }

    /// The address lists `resolve` gave that were not given back.
    public var addressListsHeld: Int {
        ledger.withLock { $0.lists }
    }

    /// How many times a descriptor was closed that those sockets had not made or had closed already: none, when
    /// nothing is closed twice.
    public var strayCloses: Int {
        ledger.withLock { $0.stray }
    }

    /// The effects made on a descriptor number after those sockets had closed it, in order.
    ///
    /// Each as a failure says it (`shutdown of 7 after its close`): a wake or a shutdown that `SocketDescriptor.close()`
    /// made late, on a number the system may have given to another connection since. None, when every effect lands on
    /// a number still owned.
    public var strayEffects: [String] {
        ledger.withLock { $0.strayEffects }
    }

    /// How many descriptors were closed only by a `SocketDescriptor`'s deinit, their owner having let go of them
    /// without closing them: none, when every path closes what it owns.
    public var droppedOpen: Int {
        ledger.withLock { $0.dropped }
    }

    /// Whether everything taken was given back, once, by its owner: no descriptor open, no address list held, no
    /// stray close, none dropped open, no effect on a number after its close.
    public var gaveEverythingBack: Bool {
        ledger.withLock {
            $0.open.isEmpty && $0.lists == 0 && $0.stray == 0 && $0.dropped == 0 && $0.strayEffects.isEmpty
        }
    }

    /// The ledger as a failure says it: `open [7], address lists 0, stray closes 0, dropped open 1`, and each stray
    /// effect after it (`; shutdown of 7 after its close`).
    public var leftovers: String {
        ledger.withLock {
            "open \($0.open.sorted()), address lists \($0.lists), stray closes \($0.stray), dropped open \($0.dropped)"
                + $0.strayEffects.map { "; \($0)" }.joined()
        }
    }

    /// How many calls of `call` the sockets carrying the faults made, faulty or not.
    public func count(of call: SystemCallFaults.Call) -> Int {
        tally.withLock { $0.counts[call, default: 0] }
    }

    /// How many calls of `call` a rule changed.
    public func faulted(_ call: SystemCallFaults.Call) -> Int {
        tally.withLock { $0.applied[call, default: 0] }
    }

    private func decide(_ call: SystemCallFaults.Call) -> SystemCallFaults.Action? {
        tally.withLock { tally in
            tally.counts[call, default: 0] += 1
            let number = tally.counts[call, default: 0]
            guard let rule = rules.first(where: { $0.call == call && $0.calls.contains(number) }) else { return nil }
            tally.applied[call, default: 0] += 1
            return rule.action
        }
    }
}

/// What the sockets carrying an injector's faults took and gave back.
private struct Ledger {
    var open: Set<Int32> = []
    var lists = 0
    var stray = 0
    var dropped = 0
    /// The numbers closed and not made again since: an effect on one is stray.
    var closed: Set<Int32> = []
    var strayEffects: [String] = []

    mutating func record(_ resource: SystemCallFaults.Resource) {
        switch resource {
        case .opened(let descriptor):
            open.insert(descriptor)
            closed.remove(descriptor)
        case .closed(let descriptor):
            if open.remove(descriptor) == nil { stray += 1 }
            closed.insert(descriptor)
        case .shutDown(let descriptor):
            if closed.contains(descriptor) { strayEffects.append("shutdown of \(descriptor) after its close") }
        case .woken(let descriptor):
            if closed.contains(descriptor) { strayEffects.append("wake written to \(descriptor) after its close") }
        case .resolved: lists += 1
        case .freed: lists -= 1
        case .dropped: dropped += 1
        }
    }
}
