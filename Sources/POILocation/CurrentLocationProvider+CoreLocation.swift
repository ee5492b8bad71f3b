#if canImport(CoreLocation)
    public import CoreLocation
    import POIDomain

    /// The real `CLLocationManager` knows only its own delegate protocol: forward its callbacks to the fetcher ones.
    extension CurrentLocationProvider: CLLocationManagerDelegate {
        public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
            locationFetcher(
                manager,
                didUpdateLocations: locations.map {
                    Coordinate(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude)
                }
            )
        }

        public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
            locationFetcher(manager, didFailWithError: error)
        }
    }
#endif
