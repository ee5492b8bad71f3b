// What LeakSanitizer reports in a Swift program on Linux that leaks nothing of its own, one case per argument:
//   timer    a Foundation Timer, fired, invalidated and dropped
//   process  a Foundation Process, run to its end and dropped
//   data     a Data of 2471 bytes, made on a thread that has ended and still held by a global at exit
//   array    the same bytes as an [UInt8], held the same way: the control, reported by no one
//   cycle    two objects of this program that hold each other, dropped: a real leak, which no suppression may hide
// scripts/ci/sanitizers/lsan-swift-repro builds it with -sanitize=address and runs each, without and with lsan.supp.
import Foundation

@main enum LSanSwiftRepro {
    static func main() throws {
        switch CommandLine.arguments.dropFirst().first ?? "" {
        case "timer":
            onAThreadOfItsOwn {
                let timer = Timer(fire: Date(), interval: 0, repeats: false) { _ in }
                timer.fire()
                timer.invalidate()
            }
        case "process": onAThreadOfItsOwn { runToItsEnd("/bin/true") }
        case "data": onAThreadOfItsOwn { keptData = Data(repeating: 7, count: 2471) }
        case "array": onAThreadOfItsOwn { keptBytes = [UInt8](repeating: 7, count: 2471) }
        case "cycle": onAThreadOfItsOwn(makeCycle)
        default: fatalError("usage: lsan-swift-repro timer|process|data|array|cycle")
        }
    }

    /// Runs `path` and waits for it to end; the Process is dropped when this returns.
    static func runToItsEnd(_ path: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do { try process.run() } catch { fatalError("cannot run \(path): \(error)") }
        ended.wait()
    }

    /// Runs `work` on a thread of its own and returns once that thread has ended: what `work` dropped is on no stack
    /// LeakSanitizer scans at exit, where a stale copy of a pointer would hide a leak (it scans conservatively).
    static func onAThreadOfItsOwn(_ work: @escaping () -> Void) {
        final class Work {
            let run: () -> Void
            init(_ run: @escaping () -> Void) { self.run = run }
        }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Work(work)).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_join(thread, nil)
    }

    final class Node {
        var next: Node?
    }

    /// Two nodes that hold each other, dropped when this returns.
    static func makeCycle() {
        let first = Node()
        let second = Node()
        first.next = second
        second.next = first
    }

    /// Still held at exit, where LeakSanitizer scans the globals (as the `Data` in a test's static table of cases is):
    /// made on a thread that has ended, so that no stack holds a plain copy of the pointer. A Data held by a thread
    /// still waiting at exit was reported on some machines only (a plain copy in that thread's frames hid it).
    nonisolated(unsafe) static var keptData: Data?
    nonisolated(unsafe) static var keptBytes: [UInt8]?
}
