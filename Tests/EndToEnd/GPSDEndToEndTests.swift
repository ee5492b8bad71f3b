import Foundation
import POISockets
import POITestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where Debian installs gpsd.
private let gpsdExecutable = URL(fileURLWithPath: "/usr/sbin/gpsd")

/// `poi nearby` without coordinates, against a real gpsd that reads a recorded NMEA track from a networked receiver.
///
/// Runs when gpsd is installed (Debian: `apt-get install gpsd`, which CI does); otherwise it is skipped and says so.
/// gpsd runs in the foreground (`-N`) on a free port, reading the test's `NetworkGPSReceiver` as its one device
/// (`-n` opens it at once). Every step waits for an event, none for time: gpsd connecting to the receiver, gpsd
/// reporting the fix of the track to a watcher, `poi` exiting.
@Suite(
    "poi nearby with gpsd, end to end",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: gpsdExecutable.path),
        "gpsd is not installed: apt-get install gpsd to run this test"
    ),
    .timeLimit(.minutes(1))
)
struct GPSDEndToEndTests {
    @Test("Without --lat and --long, poi asks gpsd and lists the places near the receiver's position")
    func nearbyFromGPSD() async throws {
        let receiver = try NetworkGPSReceiver()
        defer { receiver.stop() }
        // A free port: bind port 0, read the number, release it for gpsd.
        let (probe, port) = try Socket.bind(host: "127.0.0.1", port: 0)
        probe.close()

        // -N foreground, -n open the device now, -b read-only (send the receiver nothing), -S the client port.
        let (result, gpsdStatus) = try await BuiltProduct.withRunningProcess(
            gpsdExecutable, ["-N", "-n", "-b", "-S", "\(port)", receiver.source]
        ) { _ in
            try await receiver.waitForGPSD()
            let report = try await receiver.replay(RecordedTrack.conventionCenterWalk, throughGPSDOnPort: port)
            #expect(report.fix.map { abs($0.latitude - 37.3293) < 0.0001 } == true, "\(report)")
            // gpsd now has a fix: poi's POLL gets it at once.
            return try await Self.nearby(gpsdPort: port)
        }
        #expect(gpsdStatus == 0, "gpsd stopped cleanly on SIGTERM")
        Self.expectPlacesNearTheTrack(result)
    }

    /// Runs `poi nearby` without coordinates, so that it asks the gpsd on `gpsdPort`.
    static func nearby(gpsdPort: UInt16) async throws -> BuiltProduct.Result {
        try await Programs.poi(["nearby", "--limit", "2"], environment: ["POI_GPSD_PORT": "\(gpsdPort)"])
    }

    /// Checks that `poi nearby` succeeded and listed the places near `RecordedTrack.conventionCenterWalk`.
    static func expectPlacesNearTheTrack(_ result: BuiltProduct.Result) {
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first?.hasPrefix("Places near 37.32") == true, "\(result.standardOutput)")
        #expect(lines.dropFirst().first?.hasSuffix("San Jose McEnery Convention Center  (venue)") == true)
    }
}
