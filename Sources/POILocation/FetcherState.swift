/// What every fetcher of this module keeps: a weak delegate, as `CLLocationManager` keeps it, and the accuracy.
struct FetcherState {
    weak var delegate: (any LocationFetcherDelegate)?
    var desiredAccuracy: LocationAccuracy = 0
}
