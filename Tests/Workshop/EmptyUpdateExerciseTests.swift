import POIDomain
import POILocation
import Synchronization
import Testing

/// Exercise `empty-update` (chapters 7 and 8, mocking with protocols).
///
/// `LocationFetcherDelegate` lets a fetcher report an update with no position at all. The provider ignores such an
/// update today, so the check that asked waits for ever and every later check joins it. The task: answer the
/// waiting checks with a `LocationError` that says no position came, so that the next check asks the fetcher again.
/// A mock fetcher plays the location source: it answers each request with the next update it was given, from
/// inside `requestLocation()`, as the talk's mock does, so nothing here waits.
@Suite(
    "Exercise: empty-update",
    .enabled(if: WorkshopSwitch.isOn("empty-update"), WorkshopSwitch.reason("empty-update")))
struct EmptyUpdateExerciseTests {
    /// Answers request number N with the Nth update (an empty one first, for these tests), and counts requests.
    final class ScriptedFetcher: LocationFetcher, Sendable {
        private let state = Mutex<
            (delegate: (any LocationFetcherDelegate)?, accuracy: LocationAccuracy, requests: Int)
        >((nil, 0, 0))
        let updates: [[Coordinate]]

        init(updates: [[Coordinate]]) {
            self.updates = updates
        }

        var locationFetcherDelegate: (any LocationFetcherDelegate)? {
            get { state.withLock { $0.delegate } }
            set { state.withLock { $0.delegate = newValue } }
        }

        var desiredAccuracy: LocationAccuracy {
            get { state.withLock { $0.accuracy } }
            set { state.withLock { $0.accuracy = newValue } }
        }

        var requests: Int {
            state.withLock { $0.requests }
        }

        func requestLocation() {
            let number = state.withLock { state in
                state.requests += 1
                return state.requests
            }
            locationFetcherDelegate?.locationFetcher(self, didUpdateLocations: updates[min(number, updates.count) - 1])
        }
    }

    static let convention = Coordinate(latitude: 37.3293, longitude: -121.8893)

    @Test("An update with no position answers the waiting check with a LocationError that says so")
    func emptyUpdateIsAnError() async {
        let provider = CurrentLocationProvider(locationFetcher: ScriptedFetcher(updates: [[]]))
        await confirmation("the check is answered") { answered in
            provider.locatePointOfInterest { result in
                answered()
                guard case .failure(let error) = result else {
                    Issue.record("expected a failure, got \(result)")
                    return
                }
                #expect(error is LocationError, "\(error)")
                #expect(String(describing: error).contains("no position"), "\(error)")
            }
        }
    }

    @Test("After an empty update checkCurrentLocation answers false, and the next check asks the fetcher again")
    func nextCheckAsksAgain() async {
        let fetcher = ScriptedFetcher(updates: [[], [Self.convention]])
        let provider = CurrentLocationProvider(locationFetcher: fetcher)
        await confirmation("both checks are answered", expectedCount: 2) { answered in
            provider.checkCurrentLocation { isAtPlace in
                #expect(!isAtPlace)
                answered()
            }
            provider.checkCurrentLocation { isAtPlace in
                #expect(isAtPlace, "the second check must get the fetcher's second update")
                answered()
            }
        }
        #expect(fetcher.requests == 2)
    }
}
