import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIRequestLoader {
    /// Loads the request made from `requestData` and returns the parsed response: the `async` form of
    /// `loadAPIRequest(requestData:completionHandler:)`, with the same errors.
    ///
    /// Cancelling the calling task cancels the `URLSessionTask`, and the call throws the `URLError` with code
    /// `.cancelled`. Linux: this is built on `dataTask` rather than `URLSession.data(for:)`, and the cancel is
    /// sent from another queue, never from inside the cancellation handler, because with FoundationNetworking
    /// 6.x cancelling an in-flight `data(for:)` while it completes can deadlock (swift-corelibs-foundation #5412:
    /// the task's status lock and the session's work queue are taken in opposite orders).
    public func loadAPIRequest(requestData: T.RequestDataType) async throws -> T.ResponseDataType {
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = load(requestData: requestData) { result in
                    continuation.resume(with: result)
                }
                if let task {
                    cancellation.attach(task)
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

/// Connects a Swift task's cancellation to the `URLSessionTask` started for it, whichever comes first.
private final class Cancellation: Sendable {
    private enum State {
        case waiting
        case started(URLSessionDataTask)
        case cancelled
    }

    private let state = Mutex(State.waiting)

    /// Records the started task, and cancels it at once when the Swift task was cancelled before it started.
    func attach(_ task: URLSessionDataTask) {
        let cancelledEarly = state.withLock { state in
            if case .cancelled = state { return true }
            state = .started(task)
            return false
        }
        if cancelledEarly {
            Self.send(cancelTo: task)
        }
    }

    /// Cancels the started task, or marks the load cancelled so that `attach` cancels it.
    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            defer { state = .cancelled }
            if case .started(let task) = state { return task }
            return nil
        }
        if let task {
            Self.send(cancelTo: task)
        }
    }

    /// Cancels `task` from a global queue, outside the Swift task's cancellation handler (see #5412 above).
    private static func send(cancelTo task: URLSessionDataTask) {
        DispatchQueue.global().async {
            task.cancel()
        }
    }
}
