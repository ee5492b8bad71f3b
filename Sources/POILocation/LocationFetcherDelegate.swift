public import POIDomain

/// Hears what a `LocationFetcher` found: the talk's `LocationFetcherDelegate`.
///
/// It mirrors `CLLocationManagerDelegate` with the fetcher protocol in place of `CLLocationManager`, positions as
/// `Coordinate` (no CoreLocation on Linux), and a failure callback so that a fetcher that cannot locate says why.
/// Swift 6: it is `Sendable` because fetchers call it from their own threads (gpsd's socket, CoreLocation's queue).
public protocol LocationFetcherDelegate: AnyObject, Sendable {
    /// The fetcher found positions, oldest first.
    func locationFetcher(_ fetcher: any LocationFetcher, didUpdateLocations locations: [Coordinate])

    /// The fetcher could not find the position; `error` says why.
    func locationFetcher(_ fetcher: any LocationFetcher, didFailWithError error: any Error)
}
