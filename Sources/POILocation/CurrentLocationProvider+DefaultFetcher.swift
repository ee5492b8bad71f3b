#if canImport(CoreLocation)
    import CoreLocation
#endif

extension CurrentLocationProvider {
    /// The fetcher a provider uses when it is given none: `CLLocationManager` on Apple platforms, gpsd elsewhere.
    public static func makeDefaultFetcher() -> any LocationFetcher {
        #if canImport(CoreLocation)
            CLLocationManager()
        #else
            GPSDLocationFetcher()
        #endif
    }
}
