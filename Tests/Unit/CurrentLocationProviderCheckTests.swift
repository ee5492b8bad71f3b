import Dispatch
import Foundation
import POIDomain
import POILocation
import POILock
import POITestSupport
import PortableTestSupport
import Testing

#if canImport(CoreLocation)
    import CoreLocation
#endif

/// `CurrentLocationProvider` with a mocked fetcher and a private notification center, in Swift Testing.
///
/// The talk's own XCTest tests are in `Talk/CurrentLocationProviderTests.swift`; this suite adds the failure
/// path, the delegate wiring without CoreLocation, asynchronous and shared requests, and the radius.
@Suite("CurrentLocationProvider", .timeLimit(.minutes(1)))
struct CurrentLocationProviderCheckTests {
    /// A fetcher that answers from a closure, at once or from another queue.
    ///
    /// It holds its delegate weakly, as `CLLocationManager` and the talk's mock do: the provider holds the fetcher,
    /// so a strong reference back would keep both alive for good (LeakSanitizer found that cycle here).
    final class MockLocationFetcher: LocationFetcher, Sendable {
        private struct State {
            weak var delegate: (any LocationFetcherDelegate)?
            var accuracy: LocationAccuracy = 0
            var requests = 0
        }
        private let state = Lock(State())
        let answer: @Sendable () -> Result<Coordinate, any Error>
        let answersLater: Bool

        init(answersLater: Bool = false, answer: @escaping @Sendable () -> Result<Coordinate, any Error>) {
            self.answer = answer
            self.answersLater = answersLater
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
            state.withLock { $0.requests += 1 }
            let reply: @Sendable () -> Void = { [self] in
                switch answer() {
                case .success(let location):
                    locationFetcherDelegate?.locationFetcher(self, didUpdateLocations: [location])
                case .failure(let error): locationFetcherDelegate?.locationFetcher(self, didFailWithError: error)
                }
            }
            if answersLater { DispatchQueue.global().async(execute: reply) } else { reply() }
        }
    }

    struct Unlocatable: Error {}

    static let convention = Coordinate(latitude: 37.3293, longitude: -121.8893)
    static let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)

    static func locate(_ provider: CurrentLocationProvider) async throws -> Result<PointOfInterest?, any Error> {
        try await boundedContinuation("locatePointOfInterest's completion") { continuation in
            provider.locatePointOfInterest { continuation.resume(returning: $0) }
        }
    }

    @Test("notifyAuthChanged posts to the injected center, with the provider as object")
    func notifyAuthChangedPosts() async {
        let center = NotificationCenter()
        let poster = CurrentLocationProvider(notificationCenter: center)
        await confirmation("authChangedNotification on the injected center") { posted in
            let token = center.addObserver(
                forName: CurrentLocationProvider.authChangedNotification, object: poster, queue: nil
            ) { _ in
                posted()
            }
            poster.notifyAuthChanged()
            center.removeObserver(token)
        }
    }

    @Test("notifyAuthChanged does not post to .default")
    func notifyAuthChangedAvoidsDefault() async {
        let poster = CurrentLocationProvider(notificationCenter: NotificationCenter())
        await confirmation("a notification on .default", expectedCount: 0) { posted in
            let token = NotificationCenter.default.addObserver(
                forName: CurrentLocationProvider.authChangedNotification,
                object: poster,
                queue: nil
            ) { _ in posted() }
            poster.notifyAuthChanged()
            NotificationCenter.default.removeObserver(token)
        }
    }

    @Test("The provider sets itself as the fetcher's delegate and asks for hundred-metre accuracy")
    func delegateWiring() {
        let fetcher = MockLocationFetcher { .success(Self.convention) }
        let provider = CurrentLocationProvider(locationFetcher: fetcher, notificationCenter: NotificationCenter())
        #expect(provider.isFetcherDelegate)
        #expect(fetcher.locationFetcherDelegate === provider)
        #expect(fetcher.desiredAccuracy == 100)
        #expect(provider.fetcherDesiredAccuracy == 100)
    }

    @Test(
        "checkCurrentLocation answers whether the position is at a point of interest",
        arguments: [(convention, true), (paris, false), (Coordinate(latitude: 37.3302, longitude: -121.8881), true)]
    )
    func checkCurrentLocation(position: Coordinate, expected: Bool) async {
        let provider = CurrentLocationProvider(locationFetcher: MockLocationFetcher { .success(position) })
        // The mock answers inside requestLocation(), so the completion runs before checkCurrentLocation returns:
        // `confirmation` checks that it ran, without waiting (and without hanging if it never does).
        await confirmation("the completion is called once") { answered in
            provider.checkCurrentLocation { isPointOfInterest in
                #expect(isPointOfInterest == expected)
                answered()
            }
        }
    }

    @Test("The nearest place within the radius is the one reported")
    func nearestWithinRadius() async throws {
        let provider = CurrentLocationProvider(locationFetcher: MockLocationFetcher { .success(Self.convention) })
        let place = try await Self.locate(provider).get()
        #expect(place?.name == "San Jose McEnery Convention Center")

        let near = PointOfInterest(
            name: "150 m north", coordinate: Coordinate(latitude: 37.33065, longitude: -121.8893))
        let strict = CurrentLocationProvider(
            locationFetcher: MockLocationFetcher { .success(Self.convention) },
            pointsOfInterest: [near],
            radius: Distance(meters: 100)
        )
        #expect(try await Self.locate(strict).get() == nil)
        #expect(strict.pointOfInterest(at: Coordinate(latitude: 37.3306, longitude: -121.8893)) == near)
    }

    @Test("A place exactly at the radius counts as being at it")
    func radiusIsInclusive() throws {
        let place = PointOfInterest(name: "Edge", coordinate: Coordinate(latitude: 37.3302, longitude: -121.8893))
        let radius = try #require(place.distance(from: Self.convention))
        let provider = CurrentLocationProvider(
            locationFetcher: MockLocationFetcher { .success(Self.convention) }, pointsOfInterest: [place],
            radius: radius)
        #expect(provider.pointOfInterest(at: Self.convention) == place)
    }

    @Test("A fetcher that cannot locate makes checkCurrentLocation answer false and says why")
    func failurePath() async throws {
        let provider = CurrentLocationProvider(locationFetcher: MockLocationFetcher { .failure(Unlocatable()) })
        let answer = try await boundedContinuation("checkCurrentLocation's completion") { continuation in
            provider.checkCurrentLocation { continuation.resume(returning: $0) }
        }
        #expect(answer == false)
        let result = try await Self.locate(provider)
        #expect(throws: Unlocatable.self) { try result.get() }
    }

    @Test("A fetcher that answers later, from another queue, answers the check once")
    func asynchronousFetcher() async throws {
        let fetcher = MockLocationFetcher(answersLater: true) { .success(Self.convention) }
        let provider = CurrentLocationProvider(locationFetcher: fetcher)
        #expect(try await Self.locate(provider).get() != nil)
        #expect(fetcher.requests == 1)
    }

    /// A fetcher that never answers by itself: the test answers for it, through the delegate.
    final class QuietLocationFetcher: LocationFetcher, @unchecked Sendable {
        weak var locationFetcherDelegate: (any LocationFetcherDelegate)?
        var desiredAccuracy: LocationAccuracy = 0
        var requests = 0
        func requestLocation() { requests += 1 }
    }

    @Test("A position the fetcher reports before anyone asked is not the answer to a later check")
    func unsolicitedUpdate() {
        let fetcher = QuietLocationFetcher()
        let provider = CurrentLocationProvider(locationFetcher: fetcher)
        provider.locationFetcher(fetcher, didUpdateLocations: [Self.paris])
        let answers = Lock<[Coordinate]>([])
        provider.locateCurrentPosition { result in
            if case .success(let position) = result { answers.withLock { $0.append(position) } }
        }
        #expect(answers.withLock { $0 }.isEmpty)
        provider.locationFetcher(fetcher, didUpdateLocations: [Self.convention])
        #expect(answers.withLock { $0 } == [Self.convention])
    }

    /// A fetcher that answers its first request at once, from inside `requestLocation()`, and no later one.
    final class AnswersOnceFetcher: LocationFetcher, @unchecked Sendable {
        weak var locationFetcherDelegate: (any LocationFetcherDelegate)?
        var desiredAccuracy: LocationAccuracy = 0
        var requests = 0
        func requestLocation() {
            requests += 1
            if requests == 1 { locationFetcherDelegate?.locationFetcher(self, didUpdateLocations: [paris]) }
        }
    }

    @Test("An answer given from inside requestLocation() answers that check only: the next one waits for its own")
    func earlyAnswerUsedOnce() {
        let fetcher = AnswersOnceFetcher()
        let provider = CurrentLocationProvider(locationFetcher: fetcher)
        let answers = Lock<[Coordinate]>([])
        let record: @Sendable (Result<Coordinate, any Error>) -> Void = { result in
            if case .success(let position) = result { answers.withLock { $0.append(position) } }
        }
        provider.locateCurrentPosition(completion: record)
        #expect(answers.withLock { $0 } == [Self.paris])
        provider.locateCurrentPosition(completion: record)
        #expect(fetcher.requests == 2)
        #expect(answers.withLock { $0 } == [Self.paris])  // not the first answer again
        provider.locationFetcher(fetcher, didUpdateLocations: [Self.convention])
        #expect(answers.withLock { $0 } == [Self.paris, Self.convention])
    }

    @Test("Checks made while a request is out share its answer: the fetcher is asked once")
    func sharedRequest() {
        let fetcher = QuietLocationFetcher()
        let provider = CurrentLocationProvider(locationFetcher: fetcher)
        let answers = Lock<[Coordinate]>([])
        for _ in 1...3 {
            provider.locateCurrentPosition { result in
                if case .success(let position) = result { answers.withLock { $0.append(position) } }
            }
        }
        #expect(fetcher.requests == 1)
        provider.locationFetcher(fetcher, didUpdateLocations: [Self.paris, Self.convention])
        #expect(answers.withLock { $0 } == [Self.convention, Self.convention, Self.convention])
    }

    @Test("A completion may check again from inside the fetcher's synchronous answer")
    func reentrantCheck() async throws {
        let fetcher = MockLocationFetcher { .success(Self.convention) }
        let provider = CurrentLocationProvider(locationFetcher: fetcher)
        let second = try await boundedContinuation("the second check's completion, asked from the first's") {
            continuation in
            provider.checkCurrentLocation { _ in
                provider.checkCurrentLocation { continuation.resume(returning: $0) }
            }
        }
        #expect(second)
        #expect(fetcher.requests == 2)
    }

    @Test(
        "A provider is freed when its owner lets it go: the package's fetchers hold their delegate weakly",
        arguments: ["fixed", "gpsd"])
    func providerFreed(fetcher: String) {
        weak var freed: CurrentLocationProvider?
        do {
            let provider =
                fetcher == "fixed"
                ? CurrentLocationProvider(locationFetcher: FixedLocationFetcher(position: Self.convention))
                : CurrentLocationProvider(locationFetcher: GPSDLocationFetcher())
            #expect(provider.isFetcherDelegate)
            freed = provider
        }
        #expect(freed == nil, "a strong delegate: provider, fetcher, provider, and neither is ever freed")
    }

    @Test("The fixed-position fetcher reports its position, and rejects one that is not on Earth")
    func fixedFetcher() async throws {
        let fixed = CurrentLocationProvider(locationFetcher: FixedLocationFetcher(position: Self.convention))
        #expect(try await Self.locate(fixed).get()?.name == "San Jose McEnery Convention Center")

        let invalid = CurrentLocationProvider(
            locationFetcher: FixedLocationFetcher(position: Coordinate(latitude: 95, longitude: 0))
        )
        let result = try await Self.locate(invalid)
        #expect(throws: LocationError.invalidCoordinate(.latitudeOutOfRange(95))) { try result.get() }
    }

    /// A provider whose fetcher never answers by itself, with the answers each check got, by name.
    final class Checked: Sendable {
        /// A fetcher that only counts its requests: the test answers for it.
        ///
        /// It holds its delegate weakly, as `MockLocationFetcher` does: the provider holds the fetcher, and
        /// LeakSanitizer found the cycle a strong reference made here too.
        final class SilentFetcher: LocationFetcher, Sendable {
            private struct State {
                weak var delegate: (any LocationFetcherDelegate)?
                var accuracy: LocationAccuracy = 0
                var requests = 0
            }
            private let state = Lock(State())
            /// Given, each request signals `entered` and is out until `release` is signalled: a request that a real
            /// fetcher's thread answers while it is still out.
            let gate: (entered: DispatchSemaphore, release: DispatchSemaphore)?

            init(holdingRequests: Bool = false) {
                gate = holdingRequests ? (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)) : nil
            }
            var locationFetcherDelegate: (any LocationFetcherDelegate)? {
                get { state.withLock { $0.delegate } }
                set { state.withLock { $0.delegate = newValue } }
            }
            var desiredAccuracy: LocationAccuracy {
                get { state.withLock { $0.accuracy } }
                set { state.withLock { $0.accuracy = newValue } }
            }
            var requests: Int { state.withLock { $0.requests } }
            func requestLocation() {
                state.withLock { $0.requests += 1 }
                if let gate {
                    gate.entered.signal()
                    // bounded: the test's own gate, which the test opens; it never joins this thread
                    gate.release.wait()
                }
            }
        }

        let fetcher: SilentFetcher
        let provider: CurrentLocationProvider
        let answers = Lock<[String: [Coordinate]]>([:])

        init(waiting: [String] = [], holdingRequests: Bool = false) {
            fetcher = SilentFetcher(holdingRequests: holdingRequests)
            provider = CurrentLocationProvider(locationFetcher: fetcher)
            for name in waiting { check(name) }
        }

        /// A check named `name`, whose answers are recorded.
        func check(_ name: String) {
            provider.locateCurrentPosition { [answers] result in
                answers.withLock {
                    $0[name, default: []].append((try? result.get()) ?? Coordinate(latitude: 0, longitude: 0))
                }
            }
        }

        /// The fetcher's answer, as a fetcher gives it: from its own thread, at any time.
        func answer(_ position: Coordinate = CurrentLocationProviderCheckTests.convention) {
            provider.locationFetcher(fetcher, didUpdateLocations: [position])
        }

        var answered: [String: [Coordinate]] { answers.withLock { $0 } }
    }

    static let checks: Set<String> = ["CurrentLocationProvider.checks", "CurrentLocationProvider.fetcher"]

    /// A check whose request is out, on a thread of its own: its fetcher's `requestLocation()` has been entered there
    /// and returns when the test lets it, as a real fetcher's request is out while its answer comes on another thread.
    final class RequestOut: Sendable {
        struct NotEntered: Error {}

        let checked = Checked(holdingRequests: true)
        private let returned = DispatchSemaphore(value: 0)
        private let released = Lock(false)

        init() throws {
            DispatchQueue.global().async { [checked, returned] in
                checked.check("first")
                returned.signal()
            }
            // Bounded: a request never made fails the test instead of hanging it.
            guard checked.fetcher.gate?.entered.wait(timeout: .now() + 10) == .success else { throw NotEntered() }
        }

        /// Lets the request return (once), and waits until the check has done what follows it: takes in an answer
        /// that came meanwhile and delivers it.
        func letTheRequestReturn() {
            let first = released.withLock { released in
                defer { released = true }
                return !released
            }
            guard first else { return }
            checked.fetcher.gate?.release.signal()
            _ = returned.wait(timeout: .now() + 10)
        }
    }

    @Test("A second check anywhere in a first shares its one request, and both are answered once")
    func checkDuringACheck() throws {
        try Interleavings.each(
            { Checked() }, on: Self.checks, operation: { $0.check("first") }, competing: { $0.check("second") },
            check: { checked, trial in
                #expect(trial.point == nil || trial.competed, "\(trial): not reached again")
                checked.answer()
                #expect(checked.fetcher.requests == 1, "\(trial)")
                let expected = trial.point == nil ? ["first"] : ["first", "second"]
                #expect(
                    checked.answered == Dictionary(uniqueKeysWithValues: expected.map { ($0, [Self.convention]) }),
                    "\(trial)")
                checked.answer(Self.paris)  // an answer nobody waits for reaches nobody
                #expect(checked.answered.values.allSatisfy { $0 == [Self.convention] }, "\(trial)")
            })
    }

    @Test("The fetcher's answer anywhere in a check answers it once, early or not")
    func answerDuringACheck() throws {
        try Interleavings.each(
            { Checked() }, on: Self.checks, operation: { $0.check("first") }, competing: { $0.answer() },
            check: { checked, trial in
                #expect(trial.point == nil || trial.competed, "\(trial): not reached again")
                if trial.point == nil { checked.answer() }
                #expect(checked.answered == ["first": [Self.convention]], "\(trial)")
                #expect(checked.fetcher.requests == 1, "\(trial)")
                checked.answer(Self.paris)
                #expect(checked.answered == ["first": [Self.convention]], "\(trial): answered twice")
            })
    }

    @Test("An answer from another thread while the check's request is out is kept for it, wherever the request returns")
    func answerWhileTheRequestIsOut() throws {
        // The request returns, and the check takes in what came meanwhile, at each point of the answer: an answer
        // whose check of `requesting` and keeping of itself were two lock sections is lost between them.
        try Interleavings.each(
            { try RequestOut() }, on: Self.checks, operation: { $0.checked.answer() },
            competing: { $0.letTheRequestReturn() },
            check: { out, trial in
                #expect(trial.point == nil || trial.competed, "\(trial): not reached again")
                out.letTheRequestReturn()
                #expect(out.checked.answered == ["first": [Self.convention]], "\(trial): the answer was lost")
                #expect(out.checked.fetcher.requests == 1, "\(trial)")
            })
    }

    @Test("A check anywhere in an answer's delivery is not answered by it: it asks the fetcher, and waits for its own")
    func checkDuringAnAnswer() throws {
        try Interleavings.each(
            { Checked(waiting: ["first"]) }, on: Self.checks, operation: { $0.answer() },
            competing: { $0.check("second") },
            check: { checked, trial in
                #expect(trial.point == nil || trial.competed, "\(trial): not reached again")
                #expect(checked.answered["first"] == [Self.convention], "\(trial)")
                // The second check came while the first's answer was being delivered, or after: a new request, still
                // waiting, unless the answer took it in before its delivery began (the answer is then its own too).
                if let early = checked.answered["second"] {
                    #expect(early == [Self.convention] && checked.fetcher.requests == 1, "\(trial)")
                } else if trial.point != nil {
                    #expect(checked.fetcher.requests == 2, "\(trial)")
                    checked.answer(Self.paris)
                    #expect(checked.answered["second"] == [Self.paris], "\(trial): left waiting")
                }
                #expect(checked.answered["first"] == [Self.convention], "\(trial): answered twice")
            })
    }

    @Test("A provider given no fetcher asks the system's: CoreLocation's manager on Apple's systems, gpsd elsewhere")
    func defaultFetcher() {
        let fetcher = CurrentLocationProvider.makeDefaultFetcher()
        #if canImport(CoreLocation)
            #expect(fetcher is CLLocationManager)
        #else
            #expect(fetcher is GPSDLocationFetcher)
        #endif
    }
}
