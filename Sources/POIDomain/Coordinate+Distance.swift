#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Coordinate {
    /// The mean radius of the Earth in metres (IUGG), the sphere the great-circle distance is measured on.
    public static let earthMeanRadius = 6_371_008.8

    /// The great-circle distance to `other` on a sphere of the Earth's mean radius (the haversine formula).
    ///
    /// A sphere differs from the Earth's ellipsoid by at most about 0.5%, which is plenty for "how far away is it".
    public func distance(to other: Coordinate) -> Distance {
        let latitude1 = latitude * .pi / 180
        let latitude2 = other.latitude * .pi / 180
        let deltaLatitude = latitude2 - latitude1
        let deltaLongitude = (other.longitude - longitude) * .pi / 180
        let sinHalfLatitude = sin(deltaLatitude / 2)
        let sinHalfLongitude = sin(deltaLongitude / 2)
        let haversine =
            sinHalfLatitude * sinHalfLatitude + cos(latitude1) * cos(latitude2) * sinHalfLongitude * sinHalfLongitude
        let centralAngle = 2 * asin(min(1, haversine.squareRoot()))
        return Distance(meters: Self.earthMeanRadius * centralAngle)
    }
}
