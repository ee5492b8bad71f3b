extension FeaturedPlaceManager {
    /// Shows the next place every `interval` of `clock`, `count` times or until the task is cancelled.
    ///
    /// The modern twin of the timer technique: async code sleeps on an injected `Clock`, and a test passes a manual
    /// clock that it advances by hand, so ten seconds pass without waiting.
    public func rotate<C: Clock>(every interval: C.Duration, on clock: C, count: Int? = nil) async throws {
        var shown = 0
        while count.map({ shown < $0 }) ?? true {
            try await clock.sleep(for: interval)
            showNextPlace()
            shown += 1
        }
    }
}
