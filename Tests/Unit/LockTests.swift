import Foundation
import POILock
import PortableTestSupport
import Testing

/// The package's lock on the path where its section throws: what the caller gets, and what the lock and its value are
/// left as.
@Suite("Lock")
struct LockTests {
    struct Failed: Error, Equatable {
        let reason: String
    }

    @Test("A section that throws: its error reaches the caller as it is, the lock is released, its changes are kept")
    func throwingSection() async throws {
        let lock = Lock([1, 2])
        // On a thread of its own, waited for with a bound: were the lock left held, the second section on the same
        // thread would wait for it forever, and only that thread would be left blocked.
        let (caught, after) = try await boundedContinuation("a section after one that threw, on the same thread") {
            (done: CheckedContinuation<(Failed?, [Int]), Never>) in
            Thread.detachNewThread {
                var caught: Failed?
                do throws(Failed) {
                    try lock.withLock { (value: inout [Int]) throws(Failed) in
                        value.append(3)
                        throw Failed(reason: "after the append")
                    }
                } catch {
                    caught = error
                }
                let after = lock.withLock { value in
                    value.append(4)
                    return value
                }
                done.resume(returning: (caught, after))
            }
        }
        #expect(caught == Failed(reason: "after the append"))
        #expect(after == [1, 2, 3, 4], "the change made before the throw is kept, and the next section runs")
        let fromAnotherThread = try await boundedContinuation("a section on another thread") {
            (done: CheckedContinuation<[Int], Never>) in
            Thread.detachNewThread {
                done.resume(returning: lock.withLock { $0 })
            }
        }
        #expect(fromAnotherThread == [1, 2, 3, 4])
    }
}
