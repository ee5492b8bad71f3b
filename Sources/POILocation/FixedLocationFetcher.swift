public import POIDomain
import Synchronization

/// A fetcher that reports one position given up front, for positions typed on the command line.
///
/// It answers inside `requestLocation()`; an invalid position fails with `LocationError.invalidPosition`.
public final class FixedLocationFetcher: LocationFetcher, Sendable {
    /// The position it reports.
    public let position: Coordinate
    private let state = Mutex(FetcherState())

    /// Creates a fetcher that always reports `position`.
    public init(position: Coordinate) {
        self.position = position
    }

    public var locationFetcherDelegate: (any LocationFetcherDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    public var desiredAccuracy: LocationAccuracy {
        get { state.withLock { $0.desiredAccuracy } }
        set { state.withLock { $0.desiredAccuracy = newValue } }
    }

    /// Reports the position, or why it is not one.
    public func requestLocation() {
        let delegate = locationFetcherDelegate
        do {
            try position.validate()
            delegate?.locationFetcher(self, didUpdateLocations: [position])
        } catch {
            delegate?.locationFetcher(self, didFailWithError: LocationError.invalidPosition(error.description))
        }
    }
}
