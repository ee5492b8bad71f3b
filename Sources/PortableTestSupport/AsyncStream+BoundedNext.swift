extension AsyncStream.Iterator where Element: Sendable {
    /// The stream's next element (`nil` at its end), awaited for at most `limit`: `next()`, bounded.
    ///
    /// A test that waits for the code under test to report something on a stream (a request that arrived, a place
    /// shown) hangs when the report never comes. Bounded, it throws `WaitTimedOut` naming `what` on the deadline and
    /// the test ends. When the calling task is cancelled, it throws `CancellationError` at once.
    ///
    /// Either way the `next()` it awaited is cancelled, and a cancelled `next()` ends an `AsyncStream`: the stream's
    /// `onTermination` hears `.cancelled`, later elements are refused, and its iterators give `nil` from then on.
    public mutating func boundedNext(_ what: String, within limit: Duration = BoundedWaitLimit.standard) async throws
        -> Element?
    {
        let iterator = IteratorBox(self)
        let element = try await withBoundedWait(limit, what: what) { await iterator.next() }
        self = iterator.iterator
        return element
    }
}

/// An iterator handed to the task that awaits its next element, and back: only one task uses it at a time (the
/// caller is suspended until the element comes or the wait gives up, and then never touches the box again).
private final class IteratorBox<Element: Sendable>: @unchecked Sendable {
    var iterator: AsyncStream<Element>.Iterator

    init(_ iterator: AsyncStream<Element>.Iterator) {
        self.iterator = iterator
    }

    func next() async -> Element? {
        await iterator.next()
    }
}
