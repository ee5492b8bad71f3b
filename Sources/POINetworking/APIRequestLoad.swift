import Dispatch
import POILock

// Linux: URLSession lives in FoundationNetworking; on Apple platforms it is part of Foundation.
#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// One load of an `APIRequestLoader`, however many requests it makes: cancelling it cancels the request it has out
/// and every request it would make after.
///
/// The loader returns this rather than its `URLSessionDataTask` because a load may outlive its first task (a retry
/// starts a second one): a caller holding the first task could cancel only a request that is already over. Every
/// task of the load is attached when it starts, and a task attached after `cancel()` is cancelled at once, so a
/// cancel that lands between two requests still ends the load.
///
/// Linux: the cancel is sent from a global queue, never from the caller's stack. With FoundationNetworking 6.3,
/// cancelling a task from inside a Swift task's cancellation handler while the task completes can deadlock
/// (swift-corelibs-foundation #5412, fixed by PR #5417 for 6.4 and main).
public final class APIRequestLoad: Sendable {
    private struct State {
        var task: URLSessionDataTask?
        var isCancelled = false
    }

    private let state = Lock(State(), name: "APIRequestLoad.state")
    /// How a cancel is sent to a task: `send(cancelTo:)`, or a test's count of them.
    private let sendCancel: @Sendable (URLSessionDataTask) -> Void

    /// Creates a load with no request out yet.
    public init() {
        sendCancel = Self.send(cancelTo:)
    }

    /// A load whose cancels go to `sendCancel` instead of the task: a test counts them.
    init(sendingCancelWith sendCancel: @escaping @Sendable (URLSessionDataTask) -> Void) {
        self.sendCancel = sendCancel
    }

    /// The request out now: the task attached last, or `nil` before the first.
    public var currentTask: URLSessionDataTask? {
        state.withLock { $0.task }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Makes `task` the load's request now; cancels it at once when the load was cancelled before it started.
    ///
    /// Attach every task the load resumes: a task that is not attached cannot be cancelled through the load.
    public func attach(_ task: URLSessionDataTask) {
        let cancelledEarly = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelledEarly {
            sendCancel(task)
        }
    }

    /// Cancels the request out now and marks the load cancelled, so that a request attached later is cancelled too.
    public func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.isCancelled = true
            return state.task
        }
        if let task {
            sendCancel(task)
        }
    }

    /// Cancels `task` from a global queue, outside the caller's stack (see #5412 above).
    private static func send(cancelTo task: URLSessionDataTask) {
        DispatchQueue.global().async {
            task.cancel()
        }
    }
}
