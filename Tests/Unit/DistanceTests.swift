import POIDomain
import PortableTestSupport
import Testing

@Suite("Great-circle distance and its formatting")
struct DistanceTests {
    /// City pairs with their WGS84 geodesic distances: the reference the spherical formula must stay within 0.5% of.
    ///
    /// The reference values were computed with GeographicLib (Karney, "Algorithms for geodesics", 2013).
    static let cityPairs: [(String, Coordinate, Coordinate, Double)] = [
        (
            "San Jose convention center to the San Francisco Ferry Building",
            Coordinate(latitude: 37.3293, longitude: -121.8893),
            Coordinate(latitude: 37.7955, longitude: -122.3937),
            68_288.2
        ),
        (
            "London to Paris",
            Coordinate(latitude: 51.5074, longitude: -0.1278),
            Coordinate(latitude: 48.8566, longitude: 2.3522),
            343_923.1
        ),
        (
            "New York to Los Angeles",
            Coordinate(latitude: 40.7128, longitude: -74.0060),
            Coordinate(latitude: 34.0522, longitude: -118.2437),
            3_944_422.2
        ),
        (
            "Sydney to Melbourne",
            Coordinate(latitude: -33.8688, longitude: 151.2093),
            Coordinate(latitude: -37.8136, longitude: 144.9631),
            713_857.7
        ),
        (
            "Quito to Singapore, across the antimeridian",
            Coordinate(latitude: -0.1807, longitude: -78.4678),
            Coordinate(latitude: 1.3521, longitude: 103.8198),
            19_743_445.7
        ),
        (
            "Reykjavik to Cape Town",
            Coordinate(latitude: 64.1466, longitude: -21.9426),
            Coordinate(latitude: -33.9249, longitude: 18.4241),
            11_433_597.1
        ),
    ]

    @Test("Distances are within 0.5% of the geodesic reference", arguments: cityPairs)
    func cityPair(name: String, from: Coordinate, to: Coordinate, referenceMeters: Double) {
        let meters = from.distance(to: to).meters
        let relativeError = abs(meters - referenceMeters) / referenceMeters
        #expect(relativeError < 0.005, "\(name): \(meters) m against \(referenceMeters) m")
    }

    @Test("Distance is symmetric and zero from a place to itself")
    func symmetryAndZero() {
        let sanJose = Coordinate(latitude: 37.3293, longitude: -121.8893)
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        #expect(sanJose.distance(to: paris) == paris.distance(to: sanJose))
        #expect(sanJose.distance(to: sanJose).meters == 0)
    }

    @Test("Antipodes are half the Earth's circumference apart")
    func antipodes() {
        let north = Coordinate(latitude: 90, longitude: 0)
        let south = Coordinate(latitude: -90, longitude: 0)
        #expect(abs(north.distance(to: south).meters - .pi * Coordinate.earthMeanRadius) < 0.001)
    }

    @Test(
        "Distances read as a person says them",
        arguments: [
            (0.0, "0 m"),
            (4.9, "0 m"),
            (5.0, "10 m"),
            (347.0, "350 m"),
            (994.9, "990 m"),
            (995.0, "1.0 km"),
            (1_000.0, "1.0 km"),
            (1_234.0, "1.2 km"),
            (1_250.0, "1.3 km"),
            (9_960.0, "10.0 km"),
            (68_292.8, "68.3 km"),
            (99_949.0, "99.9 km"),
            (99_950.0, "100 km"),
            (3_935_751.7, "3936 km"),
            (-1.0, "unknown distance"),
            (Double.nan, "unknown distance"),
            (Double.infinity, "unknown distance"),
        ]
    )
    func formatting(meters: Double, expected: String) {
        #expect(Distance(meters: meters).description == expected)
    }

    /// The largest finite length's kilometres, all 306 digits, as Python's `'%.0f' % (sys.float_info.max / 1000)`
    /// writes them: an oracle apart from the code's own arithmetic.
    static let greatestKilometres =
        "1797693134862315555338750538565057988039669833375497251449937640941854586511512138506860115110107495054560"
        + "3565052229599895621267604067247110448919806508605195176582995831072025120205655863961810667768870005101332"
        + "5114820661488804874226791012312959433344499677148806642254843733913412106056943174918862798848"

    /// A length in metres, and how it must read.
    struct Reading: Sendable {
        var meters: Double
        var text: String
    }

    @Test(
        "Every finite, non-negative length reads truthfully, in whole kilometres past what Int holds; none traps",
        arguments: [
            InputCase(
                "Distance.description", .huge, "1e22 m, past Int.max km: 10000000000000000000 km",
                value: Reading(meters: 1e22, text: "10000000000000000000 km")),
            InputCase(
                "Distance.description", .boundary, "2^63 km, the first past Int.max",
                value: Reading(meters: 0x1p63 * 1000, text: "9223372036854775808 km")),
            InputCase(
                "Distance.description", .boundary, "2^64 m, within Int's kilometres",
                value: Reading(meters: 0x1p64, text: "18446744073709552 km")),
            InputCase(
                "Distance.description", .huge, "the largest Double, in metres: all 306 digits of its km",
                value: Reading(meters: .greatestFiniteMagnitude, text: greatestKilometres + " km")),
            InputCase(
                "Distance.description", .boundary, "-0, negative zero: 0 m", value: Reading(meters: -0.0, text: "0 m")),
            InputCase(
                "Distance.description", .boundary, "the least Double over 0: 0 m",
                value: Reading(meters: .leastNonzeroMagnitude, text: "0 m")),
            InputCase(
                "Distance.description", .invalid, "the least Double under 0: unknown distance",
                value: Reading(meters: -.leastNonzeroMagnitude, text: "unknown distance")),
        ]
    )
    func extremes(_ input: InputCase<Reading>) {
        #expect(Distance(meters: input.value.meters).description == input.value.text)
    }

    @Test("Distances order by length")
    func ordering() {
        #expect(Distance(meters: 350) < Distance(meters: 1_200))
        #expect(!(Distance(meters: 350) < Distance(meters: 350)), "a strict order: no distance is below itself")
        #expect(
            ![Distance(meters: 2), Distance(meters: 1)].sorted().elementsEqual([2, 1].map(Distance.init(meters:))))
    }
}
