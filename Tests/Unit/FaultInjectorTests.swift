import POILock
import POITestSupport
import PortableTestSupport
import Testing

@testable import POISockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The injector itself, without a socket: which call each rule decides, what it counts, and how it is scoped.
@Suite("FaultInjector", .timeLimit(.minutes(1)))
struct FaultInjectorTests {
    /// The actions the injector's faults give `count` calls of `call`, in order (`nil`: as usual).
    static func actions(_ injector: FaultInjector, _ call: SystemCallFaults.Call, count: Int)
        -> [SystemCallFaults.Action?]
    {
        let faults = injector.faults
        return (0..<count).map { _ in faults.action(for: call) }
    }

    @Test("A rule applies to the calls of its number only, counted from 1 for each kind of call")
    func numberedCalls() {
        let injector = FaultInjector(.fail(.accept, with: EMFILE, calls: 2...3))
        #expect(Self.actions(injector, .accept, count: 4) == [nil, .fail(EMFILE), .fail(EMFILE), nil])
        #expect(Self.actions(injector, .send, count: 2) == [nil, nil])
        #expect(injector.count(of: .accept) == 4)
        #expect(injector.faulted(.accept) == 2)
        #expect(injector.count(of: .send) == 2)
        #expect(injector.faulted(.send) == 0)
        #expect(injector.count(of: .receive) == 0)
    }

    @Test("A reader anywhere in a call's decision sees it counted and decided together, never counted alone")
    func tallyInterleaved() throws {
        let seen = Lock<[(count: Int, faulted: Int)]>([])
        try Interleavings.each(
            { FaultInjector(.fail(.accept, with: EMFILE)) }, on: ["FaultInjector.tally"],
            operation: { _ = $0.faults.action(for: .accept) },
            competing: { injector in
                seen.withLock { $0.append((injector.count(of: .accept), injector.faulted(.accept))) }
            },
            check: { injector, trial in
                #expect(trial.point == nil || trial.competed, "\(trial): not reached again")
                #expect(injector.count(of: .accept) == 1 && injector.faulted(.accept) == 1, "\(trial)")
            })
        #expect(seen.withLock { $0 }.allSatisfy { $0.count == $0.faulted }, "\(seen.withLock { $0 })")
        #expect(seen.withLock { $0 }.isEmpty == false)
    }

    @Test("A rule without numbers applies to every call; of two rules for one call, the first that applies decides")
    func firstRuleWins() {
        let injector = FaultInjector(.fail(.receive, with: EINTR, calls: 1...1), .shorten(.receive, to: 7))
        #expect(Self.actions(injector, .receive, count: 3) == [.fail(EINTR), .atMost(7), .atMost(7)])
    }

    @Test("No rule: no call is changed, and every call is still counted")
    func noRules() {
        let injector = FaultInjector()
        #expect(Self.actions(injector, .poll, count: 2) == [nil, nil])
        #expect(injector.count(of: .poll) == 2)
        #expect(SystemCallFaults.none.action(for: .poll) == nil)
    }

    @Test("Each faults value of one injector counts into the same tally")
    func sharedTally() {
        let injector = FaultInjector(.fail(.socket, with: EMFILE, calls: 2...2))
        #expect(injector.faults.action(for: .socket) == nil)
        #expect(injector.faults.action(for: .socket) == .fail(EMFILE))
        #expect(injector.count(of: .socket) == 2)
    }

    @Test("A rule says which calls it changes and how, for a failure's message")
    func description() {
        #expect("\(FaultInjector.Rule.fail(.accept, with: 24, calls: 2...3))" == "accept calls 2...3: fail(24)")
        #expect("\(FaultInjector.Rule.shorten(.send, to: 7))" == "send from call 1: atMost(7)")
    }

    @Test("withFaults gives the body a new injector of the rules, as FaultInjector.current too")
    func helper() async {
        #expect(FaultInjector.current == nil)
        let seen = await withFaults(.fail(.bind, with: EACCES)) { injector in
            (injector.faults.action(for: .bind), FaultInjector.current === injector)
        }
        #expect(seen.0 == .fail(EACCES))
        #expect(seen.1)
        #expect(FaultInjector.current == nil)
    }

    @Test("A rule keeps the call it names, the calls of it it applies to (every one unless numbered) and its action")
    func ruleParts() {
        let failing = FaultInjector.Rule.fail(.accept, with: EMFILE, calls: 2...3)
        #expect(failing.call == .accept)
        #expect(failing.calls == 2...3)
        #expect(failing.action == .fail(EMFILE))
        let shortening = FaultInjector.Rule.shorten(.send, to: 7)
        #expect(shortening.calls == 1...Int.max)
        #expect(shortening.action == .atMost(7))
        let plain = FaultInjector.Rule(.poll, .completeAtOnce, calls: 4...4)
        #expect(plain.call == .poll && plain.calls == 4...4 && plain.action == .completeAtOnce)
        #expect(failing.description == "accept calls 2...3: fail(\(EMFILE))")
        #expect(shortening.description == "send from call 1: atMost(7)")
        #expect(
            FaultInjector.Rule(.receive, .atMost(3), calls: 5...Int.max).description == "receive from call 5: atMost(3)"
        )
    }

    @Test(
        "An injector made from an array of rules decides as one made from the same rules listed: the first that applies"
    )
    func rulesArray() {
        let rules: [FaultInjector.Rule] = [.fail(.receive, with: EINTR, calls: 1...1), .shorten(.receive, to: 7)]
        #expect(
            Self.actions(FaultInjector(rules: rules), .receive, count: 3) == [.fail(EINTR), .atMost(7), .atMost(7)])
        #expect(Self.actions(FaultInjector(rules: rules.reversed()), .receive, count: 2) == [.atMost(7), .atMost(7)])
        #expect(Self.actions(FaultInjector(rules: []), .receive, count: 1) == [nil])
    }

    @Test(
        "The ledger counts the address lists resolve gave and were not given back, and each close of no open descriptor"
    )
    func ledgerCounts() {
        let injector = FaultInjector()
        let faults = injector.faults
        faults.took(.resolved)
        faults.took(.resolved)
        #expect(injector.addressListsHeld == 2)
        faults.took(.freed)
        #expect(injector.addressListsHeld == 1)
        faults.took(.opened(7))
        faults.took(.closed(7))
        #expect(injector.strayCloses == 0, "a close of an open descriptor is not stray")
        faults.took(.closed(7))  // closed twice
        faults.took(.closed(9))  // never opened
        #expect(injector.strayCloses == 2)
        #expect(injector.addressListsHeld == 1)
        faults.took(.freed)
        #expect(injector.addressListsHeld == 0)
        #expect(!injector.gaveEverythingBack, "\(injector.leftovers)")
    }

    @Test("An effect is stray on a number closed and not made again; a number made again is owned anew")
    func strayEffects() {
        let injector = FaultInjector()
        let faults = injector.faults
        faults.took(.opened(7))
        faults.took(.shutDown(7))
        faults.took(.woken(7))
        #expect(injector.strayEffects.isEmpty, "an effect on an open descriptor is not stray")
        faults.took(.closed(7))
        faults.took(.shutDown(7))
        faults.took(.woken(7))
        #expect(injector.strayEffects == ["shutdown of 7 after its close", "wake written to 7 after its close"])
        #expect(!injector.gaveEverythingBack)
        #expect(injector.leftovers.hasSuffix("; shutdown of 7 after its close; wake written to 7 after its close"))
        faults.took(.opened(7))  // the number given to a new socket
        faults.took(.shutDown(7))
        faults.took(.woken(7))
        faults.took(.closed(7))
        #expect(injector.strayEffects.count == 2, "an effect on the number made again counted as stray")
        let fresh = FaultInjector()
        fresh.faults.took(.shutDown(3))  // a number the injector never saw: not known closed
        #expect(fresh.strayEffects.isEmpty && fresh.gaveEverythingBack)
    }

    @Test("withFaults: the body's error reaches the caller as it is, the injector is uninstalled, and the next is new")
    func helperThrows() async throws {
        struct Failed: Error, Equatable {
            let reason: String
        }
        let thrown = Lock<FaultInjector?>(nil)
        await #expect(throws: Failed(reason: "in the body")) {
            try await withFaults(.fail(.bind, with: EACCES)) { injector in
                thrown.withLock { $0 = injector }
                #expect(injector.faults.action(for: .bind) == .fail(EACCES))
                throw Failed(reason: "in the body")
            }
        }
        #expect(FaultInjector.current == nil)
        let first = try #require(thrown.withLock { $0 })
        #expect(first.count(of: .bind) == 1)
        let next = await withFaults(.fail(.bind, with: EACCES)) { injector in
            (injector !== first, FaultInjector.current === injector, injector.count(of: .bind))
        }
        #expect(next.0, "a new injector")
        #expect(next.1, "installed as the current one")
        #expect(next.2 == 0, "its counts at zero")
        #expect(FaultInjector.current == nil)
    }

    @Test("withFaults in a task cancelled mid-body: the body's CancellationError reaches the caller, the injector gone")
    func helperCancelled() async throws {
        let (started, starting) = AsyncStream<Void>.makeStream()
        let (gate, gateKeeper) = AsyncStream<Void>.makeStream()
        defer { gateKeeper.finish() }
        let after = Lock<(current: FaultInjector?, body: FaultInjector?)>((nil, nil))
        let task = Task {
            do {
                try await withFaults(.fail(.bind, with: EACCES)) { injector in
                    after.withLock { $0.body = injector }
                    starting.yield()
                    // bounded: the gate is never opened; its wait ends when the test cancels the task, which the test
                    // awaits with a bound.
                    for await _ in gate {}
                    try Task.checkCancellation()
                }
            } catch {
                after.withLock { $0.current = FaultInjector.current }
                throw error
            }
        }
        var starts = started.makeAsyncIterator()
        _ = try await starts.boundedNext("the body's start")
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.boundedValue("the cancelled withFaults") }
        let (current, body) = after.withLock { $0 }
        #expect(body != nil, "the body ran")
        #expect(current == nil, "no injector installed once withFaults has thrown")
    }

    @Test("The trait gives each test an injector of its own", .injecting(.fail(.listen, with: EADDRINUSE)))
    func trait() throws {
        let injector = try #require(FaultInjector.current)
        #expect(injector.faults.action(for: .listen) == .fail(EADDRINUSE))
        #expect(injector.count(of: .listen) == 1)
    }
}
