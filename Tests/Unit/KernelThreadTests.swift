import Foundation
import POILock
import POITestSupport
import PortableTestSupport
import Testing

/// A thread as the kernel sees it: which it is, whether it is asleep, and the wait for it to be.
@Suite("KernelThread", .timeLimit(.minutes(1)))
struct KernelThreadTests {
    @Test("A thread's identifier is its own, the same each time it asks; it is asleep while blocked, not while it runs")
    func identifiesTheThread() async throws {
        let here = KernelThread.current()
        guard let identifier = here.identifier else {
            // Where the system does not say which thread runs, nothing is known of it.
            #expect(here.isAsleep == nil)
            #expect(here.description == "a thread")
            return
        }
        #expect(KernelThread.current().identifier == identifier)
        #expect(Int(identifier) != nil, "the kernel's number for the thread: \(identifier)")
        #expect(here.description == "thread \(identifier)")
        #expect(here.isAsleep == false, "it runs: it is reading its own state")
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let blocked = Lock<KernelThread?>(nil)
        Thread.detachNewThread {
            blocked.withLock { $0 = .current() }
            _ = gate.wait(timeout: .now() + .seconds(20))  // bounded: the test opens the gate when it ends
        }
        try await KernelThread.waitUntilAsleep { blocked.withLock { $0 } }
        let other = try #require(blocked.withLock { $0 })
        #expect(other.identifier != nil && other.identifier != identifier, "another thread, another identifier")
        #expect(other.isAsleep == true, "blocked on the gate")
        #expect(KernelThread.current().isAsleep == false)
    }

    @Test(
        "A thread not asleep within the limit: NotAsleep names the thread, or says it never said which, and the limit")
    func notAsleep() async throws {
        let running = KernelThread.current()
        let limit = Duration.milliseconds(20)
        let named = await #expect(throws: KernelThread.NotAsleep.self) {
            try await KernelThread.waitUntilAsleep({ running }, after: { false }, limit: limit)
        }
        #expect(named?.description == "\(running) did not block within 0.02 seconds")
        let unnamed = await #expect(throws: KernelThread.NotAsleep.self) {
            try await KernelThread.waitUntilAsleep({ nil }, limit: limit)
        }
        #expect(unnamed?.description == "the thread did not block within 0.02 seconds")
    }

    @Test("Cancelled while it waits, the wait throws CancellationError at once, without waiting out its limit")
    func cancelled() async throws {
        let looks = Lock(0)
        let wait = Task {
            try await KernelThread.waitUntilAsleep(
                { nil },
                after: {
                    looks.withLock { $0 += 1 }
                    return false
                }, limit: .seconds(60))
        }
        try await boundedUntil("the wait's first look") { looks.withLock { $0 } > 0 }
        wait.cancel()
        await #expect(throws: CancellationError.self) { try await wait.boundedValue("the cancelled wait") }
    }
}
