import Foundation
import POISockets
import POITestSupport
import PortableTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `poi nearby` without coordinates, against a real gpsd replaying a recorded NMEA track through gpsfake, gpsd's
/// own test driver.
///
/// The same check as `GPSDEndToEndTests`, the way gpsd's project replays logs. It costs more than a second (gpsfake
/// sleeps 1.4 s after starting gpsd, before it feeds the log), so it runs only when asked: `POI_GPSFAKE=1` and gpsfake
/// installed (Debian: `apt-get install gpsd gpsd-clients`). CI runs it in a step of its own; the tiers skip it and
/// say why.
@Suite(
    "poi nearby with gpsd, through gpsfake",
    .enabled(
        if: ProcessInfo.processInfo.environment["POI_GPSFAKE"] == "1",
        "set POI_GPSFAKE=1 to replay the track through gpsfake too (slow: gpsfake waits before it feeds the track; GPSDEndToEndTests checks the same without it)"
    ),
    .enabled(
        if: BuiltProduct.installedProgram("gpsfake") != nil,
        "gpsfake is not installed: apt-get install gpsd gpsd-clients (Debian) or brew install gpsd (macOS) to run this test"
    ),
    .timeLimit(.minutes(1))
)
struct GPSFakeEndToEndTests {
    @Test("Without --lat and --long, poi asks gpsd and lists the places near the replayed position")
    func nearbyFromGPSD() async throws {
        let log = TestScratch.file("track", suffix: "nmea")
        try Data(RecordedTrack.conventionCenterWalk.utf8).write(to: log)
        defer { try? FileManager.default.removeItem(at: log) }
        // gpsd cannot bind port 0: a free port is picked (bind 0, read the number, release it) for gpsfake's gpsd,
        // and another process may take it in between. Then gpsd cannot start, gpsfake ends before it greets, and
        // the next attempt takes a new port; three attempts at most.
        var attempt = 0
        var outcome: (result: BuiltProduct.Result, exitStatus: Int32)?
        while outcome == nil {
            attempt += 1
            let (probe, port) = try Socket.bind(host: "127.0.0.1", port: 0)
            probe.close()
            do {
                outcome = try await Self.replay(log, onPort: port)
            } catch let failure as BuiltProduct.Failure where attempt < 3 {
                print("gpsfake did not start on port \(port) (\(failure)); trying another port")
            }
        }
        let (result, gpsfakeStatus) = try #require(outcome)
        #expect(gpsfakeStatus == 0, "gpsfake stopped cleanly, with its gpsd")
        GPSDEndToEndTests.expectPlacesNearTheTrack(result)
    }

    /// Replays `log` through gpsfake on `port` and runs `poi nearby` against its gpsd once gpsd is up.
    ///
    /// gpsfake -p prints gpsd's reports as a client; its first line means gpsd is up and serving. SIGINT, not
    /// SIGTERM, stops it: on SIGINT gpsfake also stops the gpsd it started, on SIGTERM that gpsd is left running.
    static func replay(_ log: URL, onPort port: UInt16) async throws -> (result: BuiltProduct.Result, exitStatus: Int32)
    {
        let greets: @Sendable (String) -> Bool = { $0.contains(#""class":"VERSION""#) }
        return try await BuiltProduct.withRunningProcess(
            BuiltProduct.installedProgram("gpsfake")!,
            ["-P", "\(port)", "-p", "-q", "-c", "0.1", log.path],
            readyWhen: greets,
            stopSignal: SIGINT
        ) { _ in
            try await GPSDEndToEndTests.nearby(gpsdPort: port)
        }
    }
}
