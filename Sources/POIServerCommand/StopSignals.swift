import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM as `poi-server`'s stop trigger: blocked in every thread, and taken by one with `sigwait`.
///
/// `block()` must run on the main thread before any other thread starts, so that every thread inherits the mask
/// and a signal sent at any moment stays pending until `wait()` takes it: none is lost, none kills the process.
/// (A dispatch signal source plus `SIG_IGN` races on Linux: whichever is installed last wins.) Only the
/// executable calls it; a test stops the program through a trigger of its own and leaves its runner's signal
/// mask alone.
public struct StopSignals: Sendable {
    private let signals: [Int32]

    /// Stop signals of `signals`, unblocked: `block()` makes the program's.
    init(signals: [Int32]) {
        self.signals = signals
    }

    /// Blocks SIGINT and SIGTERM in the calling thread, and so in every thread it starts later.
    public static func block() -> StopSignals {
        // The main thread, first thing: a thread started before it would not inherit the mask.
        dispatchPrecondition(condition: .onQueue(.main))
        let stop = StopSignals(signals: [SIGINT, SIGTERM])
        var set = stop.signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return stop
    }

    /// Returns when one of the signals arrives.
    public func wait() async {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var set = signalSet()
                while true {
                    var received: Int32 = 0
                    let status = sigwait(&set, &received)
                    if ends(status: status, received: received) { break }
                }
                continuation.resume()
            }
        }
    }

    /// Whether a `sigwait` that returned `status`, having written `received`, ends the wait.
    ///
    /// It does when one of the signals was taken, or the call failed for a reason waiting again would not mend.
    /// Darwin's returns 0 with no signal when it is interrupted (libpthread turns its EINTR into 0), where Glibc's waits
    /// on: the wait goes on, as on EINTR.
    func ends(status: Int32, received: Int32) -> Bool {
        signals.contains(received) || (status != 0 && status != EINTR)
    }

    private func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
