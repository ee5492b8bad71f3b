/// NMEA 0183 tracks, as a GPS receiver records them, for tests that give gpsd a position.
public enum RecordedTrack {
    /// A short walk north-east from the San Jose convention center's doors: one RMC and one GGA sentence a second
    /// for four seconds, each ending in CR LF as on the wire.
    public static let conventionCenterWalk = """
        $GPRMC,170000.00,A,3719.7580,N,12153.3580,W,0.5,45.0,050618,,,A*78
        $GPGGA,170000.00,3719.7580,N,12153.3580,W,1,08,0.9,25.0,M,-30.0,M,,*6C
        $GPRMC,170001.00,A,3719.7610,N,12153.3550,W,0.5,45.0,050618,,,A*7E
        $GPGGA,170001.00,3719.7610,N,12153.3550,W,1,08,0.9,25.0,M,-30.0,M,,*6A
        $GPRMC,170002.00,A,3719.7640,N,12153.3520,W,0.5,45.0,050618,,,A*7F
        $GPGGA,170002.00,3719.7640,N,12153.3520,W,1,08,0.9,25.0,M,-30.0,M,,*6B
        $GPRMC,170003.00,A,3719.7670,N,12153.3490,W,0.5,45.0,050618,,,A*77
        $GPGGA,170003.00,3719.7670,N,12153.3490,W,1,08,0.9,25.0,M,-30.0,M,,*63

        """.split(separator: "\n").map { $0 + "\r\n" }.joined()
}
