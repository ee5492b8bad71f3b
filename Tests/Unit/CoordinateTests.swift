import Foundation
import POIDomain
import Testing

@Suite("Coordinate validity")
struct CoordinateTests {
    @Test(
        "Positions on Earth are valid, the boundaries included",
        arguments: [
            (37.3293, -121.8893),
            (0, 0),
            (90, 180),
            (-90, -180),
            (90, -180),
            (-90, 180),
            (-0.0, -0.0),
        ]
    )
    func valid(latitude: Double, longitude: Double) throws {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        #expect(coordinate.isValid)
        try coordinate.validate()
    }

    @Test(
        "Values that are not positions on Earth are rejected with the reason",
        arguments: [
            (Double.nan, 0, "latitude nan is not a finite number"),
            (0, Double.nan, "longitude nan is not a finite number"),
            (Double.infinity, 0, "latitude inf is outside -90...90"),
            (0, -Double.infinity, "longitude -inf is outside -180...180"),
            (90.000001, 0, "latitude 90.000001 is outside -90...90"),
            (-90.5, 0, "latitude -90.5 is outside -90...90"),
            (0, 180.25, "longitude 180.25 is outside -180...180"),
            (0, -181, "longitude -181.0 is outside -180...180"),
            (Double.greatestFiniteMagnitude, 0, "latitude 1.7976931348623157e+308 is outside -90...90"),
        ]
    )
    func invalid(latitude: Double, longitude: Double, reason: String) {
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        #expect(!coordinate.isValid)
        #expect(throws: CoordinateError.self) { try coordinate.validate() }
        do {
            try coordinate.validate()
        } catch {
            #expect(error.description == reason)
        }
    }

    @Test("A coordinate decodes from latitude and longitude, and an invalid one is rejected by name")
    func decoding() throws {
        let json = Data(#"{"latitude": 37.3293, "longitude": -121.8893}"#.utf8)
        #expect(
            try JSONDecoder().decode(Coordinate.self, from: json) == Coordinate(latitude: 37.3293, longitude: -121.8893)
        )

        let invalid = Data(#"{"latitude": 91, "longitude": 0}"#.utf8)
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Coordinate.self, from: invalid)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.debugDescription == "latitude 91.0 is outside -90...90")
    }

    @Test("A coordinate encodes and decodes back to itself")
    func roundTrip() throws {
        let coordinate = Coordinate(latitude: -33.8688, longitude: 151.2093)
        let decoded = try JSONDecoder().decode(Coordinate.self, from: JSONEncoder().encode(coordinate))
        #expect(decoded == coordinate)
    }
}
