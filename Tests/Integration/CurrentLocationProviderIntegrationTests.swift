import POIDomain
import POILocation
import Testing

#if canImport(CoreLocation)
    import CoreLocation
#endif

/// The CoreLocation bridge's force cast, which stops the program: shown by an exit test, which runs the body in a
/// child process, so it lives in the tier that launches processes (the unit tier starts none).
///
/// Apple platforms only, and not compiled by this project's Linux machines (docs/macos.md's forks table).
@Suite("CurrentLocationProvider's CoreLocation bridge, stopping the program", .timeLimit(.minutes(1)))
struct CurrentLocationProviderIntegrationTests {
    #if canImport(CoreLocation)
        /// A fetcher delegate that is not a `CLLocationManagerDelegate`.
        final class OnlyFetcherDelegate: LocationFetcherDelegate {
            func locationFetcher(_ fetcher: any LocationFetcher, didUpdateLocations locations: [Coordinate]) {}
            func locationFetcher(_ fetcher: any LocationFetcher, didFailWithError error: any Error) {}
        }

        @Test("The CoreLocation bridge stops the program when given a delegate CoreLocation cannot call: an exit test")
        func bridgeForceCastTraps() async {
            await #expect(processExitsWith: .failure) {
                CLLocationManager().locationFetcherDelegate = OnlyFetcherDelegate()
            }
        }
    #endif
}
