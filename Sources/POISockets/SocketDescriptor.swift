import POILock

/// A socket descriptor with one owner: closed exactly once, and never used, shut down or closed after that.
///
/// Threads use the descriptor through `use(_:)`; `close()` may come from any thread at any time. It shuts the
/// socket down at once, which wakes every thread blocked on it, and the descriptor is closed when the last of them
/// has returned. So a descriptor number is never closed under a thread still using it, and a number the system has
/// since given to someone else (another test's socket, say) is never touched.
public final class SocketDescriptor: Sendable {
    private struct State {
        var users = 0
        var closing = false
        var closed = false
    }

    private let descriptor: Int32
    private let state = Lock(State())
    /// What a test makes this socket's system calls do (`SystemCallFaults`); `.none` in the programs.
    let faults: SystemCallFaults

    /// Takes ownership of `descriptor`, whose calls go through `faults`.
    init(_ descriptor: Int32, faults: SystemCallFaults = .none) {
        self.descriptor = descriptor
        self.faults = faults
    }

    deinit {
        if !state.withLock({ $0.closed }) { _ = systemClose(descriptor) }
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
            if last { _ = systemClose(descriptor) }
        }
        return try body(descriptor)
    }

    /// Ends the socket: shuts it down, waking any thread blocked on it, and closes it once none is.
    ///
    /// Safe to call more than once, from any thread.
    public func close() {
        let now = state.withLock { state -> Bool in
            guard !state.closing else { return false }
            state.closing = true
            guard state.users == 0 else {
                _ = systemShutdown(descriptor)
                return false
            }
            state.closed = true
            return true
        }
        if now { _ = systemClose(descriptor) }
    }
}
