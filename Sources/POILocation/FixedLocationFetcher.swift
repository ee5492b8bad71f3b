public import POIDomain

/// A fetcher that reports one position given up front: `poi nearby --lat … --long …`.
///
/// It answers inside `requestLocation()`, as the talk's mock does; a position that is not on Earth fails with
/// `LocationError.invalidCoordinate`. Like the talk's mock it is a struct: it keeps no state but the delegate
/// (weakly, as `CLLocationManager` does) and the accuracy asked of it.
public struct FixedLocationFetcher: LocationFetcher {
    /// The position it reports.
    public let position: Coordinate
    public weak var locationFetcherDelegate: (any LocationFetcherDelegate)?
    public var desiredAccuracy: LocationAccuracy = 0

    /// Creates a fetcher that always reports `position`.
    public init(position: Coordinate) {
        self.position = position
    }

    /// Reports the position, or why it is not one.
    public func requestLocation() {
        do {
            try position.validate()
            locationFetcherDelegate?.locationFetcher(self, didUpdateLocations: [position])
        } catch {
            locationFetcherDelegate?.locationFetcher(self, didFailWithError: LocationError.invalidCoordinate(error))
        }
    }
}
