extension FeaturedPlaceManager {
    /// Shows the next place after `interval` seconds, through `scheduler`: the delay written with
    /// `DispatchQueue.asyncAfter` instead of a timer, injected the same way (pass `DispatchQueue.main` in an app).
    ///
    /// Teaching twin of `scheduleNextPlace()`: the programs use the timer form, as the talk does.
    public func scheduleNextPlace(on scheduler: some DelayedWorkScheduler) {
        scheduler.schedule(after: interval) { [weak self] in
            self?.showNextPlace()
        }
    }
}
