// Eight threads add 1 to a counter 10,000 times each, under the lock named by the first argument: `mutex`
// (Synchronization's), `nslock` (Foundation's), `lock` (this package's POILock, compiled in beside this file) or
// `none` (a real race). It prints the count, 80000 when the lock excludes.
// scripts/sanitizers/mutex-tsan-repro builds it with -sanitize=thread and counts ThreadSanitizer's warnings for each.
import Foundation
import Synchronization

final class Counter: @unchecked Sendable { var value = 0 }

@main enum MutexTSanRepro {
    static func main() {
        let kind = CommandLine.arguments.dropFirst().first ?? "mutex"
        let mutex = Mutex(0)
        let nslock = NSLock()
        let lock = Lock(0)
        let counter = Counter()
        let add: @Sendable () -> Void =
            switch kind {
            case "mutex": { mutex.withLock { $0 += 1 } }
            case "nslock": { nslock.withLock { counter.value += 1 } }
            case "lock": { lock.withLock { $0 += 1 } }
            default: { counter.value += 1 }
            }
        let threads = DispatchGroup()
        for _ in 0..<8 {
            threads.enter()
            Thread {
                for _ in 0..<10_000 { add() }
                threads.leave()
            }.start()
        }
        threads.wait()
        print(kind, [mutex.withLock { $0 }, lock.withLock { $0 }, counter.value].max()!)
    }
}
