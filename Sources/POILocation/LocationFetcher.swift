/// An accuracy asked of a location source, in metres; CoreLocation's `CLLocationAccuracy` is the same `Double`.
public typealias LocationAccuracy = Double

/// Exactly what `CurrentLocationProvider` uses of a location source: the talk's `LocationFetcher`.
///
/// WWDC 2018 session 417, "Mocking with protocols": instead of subclassing `CLLocationManager` in tests, the
/// provider talks to this protocol, which `CLLocationManager` already satisfies on Apple platforms (see
/// `CLLocationManager+LocationFetcher.swift`); tests pass a small mock, and on Linux `GPSDLocationFetcher` asks
/// gpsd. The compiler then tells whenever the provider starts using something a mock would have to provide.
public protocol LocationFetcher {
    /// Who hears of positions and failures; a fetcher holds it weakly, as `CLLocationManager` holds its delegate.
    var locationFetcherDelegate: (any LocationFetcherDelegate)? { get set }

    /// The accuracy the provider asks for, in metres.
    var desiredAccuracy: LocationAccuracy { get set }

    /// Asks for the current position once; the answer goes to the delegate, later or at once.
    func requestLocation()
}
