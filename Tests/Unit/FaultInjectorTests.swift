import POILock
import POITestSupport
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

    @Test("The trait gives each test an injector of its own", .injecting(.fail(.listen, with: EADDRINUSE)))
    func trait() throws {
        let injector = try #require(FaultInjector.current)
        #expect(injector.faults.action(for: .listen) == .fail(EADDRINUSE))
        #expect(injector.count(of: .listen) == 1)
    }
}
