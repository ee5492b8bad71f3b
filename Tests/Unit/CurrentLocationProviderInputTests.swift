import Foundation
import POIDomain
import POILocation
import PortableTestSupport
import Testing

/// Which place the provider says the user is at, by class and boundary of the places around a position.
///
/// docs/inputs.md lists the cases (scripts/tool inputs).
@Suite("The place at a position, by class and boundary")
struct CurrentLocationProviderInputTests {
    static let here = Coordinate(latitude: 0, longitude: 0)

    /// A place `meters` east of `here`, on the equator (111,195 m a degree of longitude there, as Distance counts).
    static func place(_ name: String, metersEast meters: Double) -> PointOfInterest {
        let degrees = meters / (here.distance(to: Coordinate(latitude: 0, longitude: 1)).meters)
        return PointOfInterest(name: name, coordinate: Coordinate(latitude: 0, longitude: degrees))
    }

    /// The places and the radius, and the name of the place the provider must give (`nil`: none).
    struct Around: Sendable {
        var places: [PointOfInterest]
        var radius: Double
        var expected: String?
    }

    static func around(
        _ kind: InputCase<Around>.Kind, _ label: String, _ places: [PointOfInterest], radius: Double = 100,
        _ expected: String?
    ) -> InputCase<Around> {
        InputCase(
            "CurrentLocationProvider places and radius", kind, label,
            value: Around(places: places, radius: radius, expected: expected))
    }

    static let cases = [
        around(.valid, "one place 40 m away", [place("A", metersEast: 40)], "A"),
        around(
            .valid, "two within the radius, the nearer second",
            [place("Far", metersEast: 90), place("Near", metersEast: 30)], "Near"),
        around(
            .valid, "two within the radius, the nearer first",
            [place("Near", metersEast: 30), place("Far", metersEast: 90)], "Near"),
        around(.boundary, "a place 99 m away, inside a radius of 100 m", [place("A", metersEast: 99)], "A"),
        around(.boundary, "a place 101 m away, outside a radius of 100 m", [place("A", metersEast: 101)], nil),
        around(
            .invalid, "the nearer outside the radius is no reason to give the farther", [place("Out", metersEast: 150)],
            nil),
        around(.invalid, "a place without a position only", [PointOfInterest(name: "Nowhere")], nil),
        around(.empty, "no places", [], nil),
        around(.empty, "a radius of 0 m and a place 1 m away", [place("A", metersEast: 1)], radius: 0, nil),
        around(
            .huge, "a radius of 20,000 km: the nearest of places across the Earth",
            [place("Far", metersEast: 5_000_000), place("Near", metersEast: 1_000_000)], radius: 20_000_000, "Near"),
        around(.separator, "a name holding a comma and a newline", [place("A, B\nC", metersEast: 10)], "A, B\nC"),
    ]

    @Test("pointOfInterest(at:): the nearest place within the radius, or none", arguments: cases)
    func placeAt(_ input: InputCase<Around>) {
        let provider = CurrentLocationProvider(
            locationFetcher: FixedLocationFetcher(position: Self.here), notificationCenter: NotificationCenter(),
            pointsOfInterest: input.value.places, radius: Distance(meters: input.value.radius))
        #expect(provider.pointOfInterest(at: Self.here)?.name == input.value.expected)
    }
}
