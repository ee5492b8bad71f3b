// Eight threads add 1 to a counter 1,000 times each under the lock named by the first argument: `mutex`
// (Synchronization's), `nslock` (Foundation's), `lock` (this package's POILock, compiled in beside this file) or
// `none` (a real race). Each yields the processor while it holds the lock, so that the others find it taken: the
// contended case, every run. It prints the count, 8000 when the lock excludes.
// scripts/ci/sanitizers/mutex-tsan-repro builds it with -sanitize=thread and counts ThreadSanitizer's warnings for each.
import Foundation
import Synchronization

final class Counter: @unchecked Sendable { var value = 0 }

/// Adds 1, then yields the processor while the caller still holds its lock: the other threads find it taken.
func addHolding(_ value: inout Int) {
    value += 1
    sched_yield()
}

@main enum MutexTSanRepro {
    static func main() {
        let kind = CommandLine.arguments.dropFirst().first ?? "mutex"
        let mutex = Mutex(0)
        let nslock = NSLock()
        let lock = Lock(0)
        let counter = Counter()
        let add: @Sendable () -> Void =
            switch kind {
            case "mutex": { mutex.withLock { addHolding(&$0) } }
            case "nslock": { nslock.withLock { addHolding(&counter.value) } }
            case "lock": { lock.withLock { addHolding(&$0) } }
            default: { addHolding(&counter.value) }
            }
        let threads = DispatchGroup()
        for _ in 0..<8 {
            threads.enter()
            Thread {
                for _ in 0..<1_000 { add() }
                threads.leave()
            }.start()
        }
        threads.wait()
        print(kind, [mutex.withLock { $0 }, lock.withLock { $0 }, counter.value].max()!)
    }
}
