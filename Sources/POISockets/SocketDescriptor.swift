import POILock

/// A socket descriptor with one owner: closed exactly once, and never used, shut down or closed after that.
///
/// Threads use the descriptor through `use(_:)`; `close()` may come from any thread at any time. It wakes every thread
/// blocked on the socket at once, and the descriptor is closed when the last of them has returned. So a descriptor
/// number is never closed under a thread still using it, and a number the system has since given to someone else
/// (another test's socket, say) is never touched.
///
/// How a blocked thread is woken is the same on Linux and Darwin: a connection is shut down (`shutdown` wakes a thread
/// waiting on a connected socket on both); a listening socket, which Darwin refuses to shut down (`ENOTCONN`, no
/// thread woken), has a wake pipe of its own, which every wait on the listener watches beside the socket and which
/// `close()` writes to. Its two ends are closed with the socket.
public final class SocketDescriptor: Sendable {
    /// A listening socket's wake pipe: readable once `close()` has written to it, which is never read, so every wait
    /// that watches it returns at once from then on.
    struct Wake {
        /// The end the waits watch.
        let read: Int32
        /// The end `close()` writes to.
        let write: Int32
    }

    private struct State {
        var users = 0
        var closing = false
        var closed = false
    }

    private let descriptor: Int32
    private let state = Lock(State(), name: "SocketDescriptor.state")
    /// What a test makes this socket's system calls do (`SystemCallFaults`); `.none` in the programs.
    let faults: SystemCallFaults
    /// The wake pipe of a listening socket; `nil` for any other.
    let wake: Wake?

    /// Takes ownership of `descriptor`, whose calls go through `faults`, and of a listening socket's `wake` pipe.
    init(_ descriptor: Int32, faults: SystemCallFaults = .none, wake: Wake? = nil) {
        self.descriptor = descriptor
        self.faults = faults
        self.wake = wake
    }

    deinit {
        guard !state.withLock({ $0.closed }) else { return }
        // No thread uses it (each holds the descriptor), and close() was never called: closed here, and told.
        faults.took(.dropped(descriptor))
        closeNow()
    }

    /// Whether `close()` was called.
    public var isClosed: Bool {
        state.withLock { $0.closing }
    }

    /// Runs `body` with the descriptor; throws `SocketError.closed` once `close()` was called.
    func use<T>(_ body: (Int32) throws(SocketError) -> T) throws(SocketError) -> T {
        let entered = state.withLock { state in
            guard !state.closing else { return false }
            state.users += 1
            return true
        }
        guard entered else { throw .closed }
        defer {
            let last = state.withLock { state -> Bool in
                state.users -= 1
                guard state.closing, state.users == 0, !state.closed else { return false }
                state.closed = true
                return true
            }
            if last { closeNow() }
        }
        return try body(descriptor)
    }

    /// Ends the socket: wakes any thread blocked on it, and closes it once none is.
    ///
    /// Safe to call more than once, from any thread.
    public func close() {
        let now = state.withLock { state -> Bool in
            guard !state.closing else { return false }
            state.closing = true
            guard state.users == 0 else {
                // Under the lock, before any user can leave and close the pipe: the wake cannot reach a closed end.
                // The wake first: on Linux the shutdown wakes a listener's waiters too, and each must find the pipe
                // readable when it looks, or it would take the listener's own readiness for a connection.
                if let wake {
                    Self.signal(wake)
                    faults.took(.woken(wake.write))
                }
                _ = systemShutdown(descriptor)
                faults.took(.shutDown(descriptor))
                return false
            }
            state.closed = true
            return true
        }
        if now { closeNow() }
    }

    /// Closes the descriptor and a listener's wake pipe, through the faults, which count each close.
    private func closeNow() {
        faults.close(descriptor)
        if let wake {
            faults.close(wake.read)
            faults.close(wake.write)
        }
    }

    /// Makes `wake` readable: one byte, never read.
    private static func signal(_ wake: Wake) {
        var byte: UInt8 = 1
        _ = systemWrite(wake.write, &byte, 1)
    }
}
