#if canImport(CoreLocation)
    public import CoreLocation

    /// `CLLocationManager` already has `desiredAccuracy` and `requestLocation()`; only the delegate is bridged.
    ///
    /// The talk's force casts are deliberate: they trap at once if `CurrentLocationProvider` stops conforming to
    /// either delegate protocol, instead of silently dropping the callbacks.
    extension CLLocationManager: LocationFetcher {
        public var locationFetcherDelegate: (any LocationFetcherDelegate)? {
            get { delegate as! (any LocationFetcherDelegate)? }
            set { delegate = newValue as! (any CLLocationManagerDelegate)? }
        }
    }
#endif
