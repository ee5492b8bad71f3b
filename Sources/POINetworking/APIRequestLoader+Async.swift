import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIRequestLoader {
    /// Loads the request made from `requestData` and returns the parsed response: the `async` form of
    /// `loadAPIRequest(requestData:completionHandler:)`, with the same errors.
    ///
    /// Cancelling the calling task cancels the load, whichever request it has out, and the call throws the
    /// `URLError` with code `.cancelled`. Linux: this is built on `dataTask` rather than `URLSession.data(for:)`,
    /// and `APIRequestLoad` sends the cancel from another queue, never from inside the cancellation handler,
    /// because with FoundationNetworking 6.3 cancelling an in-flight `data(for:)` while it completes can deadlock
    /// (swift-corelibs-foundation #5412: the task's status lock and the session's work queue are taken in opposite
    /// orders).
    public func loadAPIRequest(requestData: T.RequestDataType) async throws -> T.ResponseDataType {
        let load = APIRequestLoad()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                _ = self.load(requestData: requestData, into: load) { result in
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            load.cancel()
        }
    }
}
