import Foundation
import POISockets
import POITestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `poi nearby` without coordinates, against a real gpsd replaying a recorded NMEA track through gpsfake.
///
/// Runs when gpsfake is installed (Debian: `apt-get install gpsd gpsd-clients`, which CI does); otherwise it is
/// skipped and says so.
@Suite(
    "poi nearby with gpsd, end to end",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake"),
        "gpsfake is not installed: apt-get install gpsd gpsd-clients to run this test"
    ),
    .timeLimit(.minutes(1))
)
struct GPSFakeEndToEndTests {
    /// A short walk north-east from the convention center's doors, one RMC and one GGA sentence a second, as a
    /// receiver records it.
    static let track = """
        $GPRMC,170000.00,A,3719.7580,N,12153.3580,W,0.5,45.0,050618,,,A*78
        $GPGGA,170000.00,3719.7580,N,12153.3580,W,1,08,0.9,25.0,M,-30.0,M,,*6C
        $GPRMC,170001.00,A,3719.7610,N,12153.3550,W,0.5,45.0,050618,,,A*7E
        $GPGGA,170001.00,3719.7610,N,12153.3550,W,1,08,0.9,25.0,M,-30.0,M,,*6A
        $GPRMC,170002.00,A,3719.7640,N,12153.3520,W,0.5,45.0,050618,,,A*7F
        $GPGGA,170002.00,3719.7640,N,12153.3520,W,1,08,0.9,25.0,M,-30.0,M,,*6B
        $GPRMC,170003.00,A,3719.7670,N,12153.3490,W,0.5,45.0,050618,,,A*77
        $GPGGA,170003.00,3719.7670,N,12153.3490,W,1,08,0.9,25.0,M,-30.0,M,,*63

        """.replacingOccurrences(of: "\n", with: "\r\n")

    @Test("Without --lat and --long, poi asks gpsd and lists the places near the replayed position")
    func nearbyFromGPSD() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("poi-track-\(UUID().uuidString).nmea")
        try Data(Self.track.utf8).write(to: log)
        defer { try? FileManager.default.removeItem(at: log) }
        // A free port: bind port 0, read the number, release it for gpsfake's gpsd.
        let (probe, port) = try Socket.listen(host: "127.0.0.1", port: 0)
        Socket.close(probe)

        // gpsfake -p prints gpsd's reports as a client; its first line means gpsd is up and serving. SIGINT, not
        // SIGTERM, stops it: on SIGINT gpsfake also stops the gpsd it started, on SIGTERM that gpsd is left running.
        let (result, gpsfakeStatus) = try await BuiltProduct.withRunningProcess(
            URL(fileURLWithPath: "/usr/bin/gpsfake"),
            ["-P", "\(port)", "-p", "-q", "-c", "0.1", log.path],
            stopSignal: SIGINT
        ) { firstLine, _ in
            #expect(firstLine.contains(#""class":"VERSION""#))
            return try await BuiltProduct.run(
                "poi", ["nearby", "--limit", "2"], environment: ["POI_GPSD_PORT": "\(port)"])
        }
        #expect(result.status == 0, "\(result.standardError)")
        #expect(gpsfakeStatus == 0, "gpsfake stopped cleanly, with its gpsd")
        let lines = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first?.hasPrefix("Places near 37.32") == true, "\(result.standardOutput)")
        #expect(lines.dropFirst().first?.hasSuffix("San Jose McEnery Convention Center  (venue)") == true)
    }
}
