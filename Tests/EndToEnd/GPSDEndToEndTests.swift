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

/// gpsd, where Debian (`/usr/sbin`) or Homebrew installs it, or on `PATH`.
private let gpsdExecutable = BuiltProduct.installedProgram("gpsd")

/// `poi nearby` without coordinates, against a real gpsd that reads a recorded NMEA track from a networked receiver.
///
/// Runs when gpsd is installed (Debian: `apt-get install gpsd`, which CI does; macOS: `brew install gpsd`); otherwise it
/// is skipped and says so.
/// gpsd runs in the foreground (`-N`) on a free port, reading the test's `NetworkGPSReceiver` as its one device
/// (`-n` opens it at once). Every step waits for an event, none for time: gpsd connecting to the receiver, gpsd
/// reporting the fix of the track to a watcher, `poi` exiting.
@Suite(
    "poi nearby with gpsd, end to end",
    .enabled(
        if: gpsdExecutable != nil,
        "gpsd is not installed: apt-get install gpsd (Debian) or brew install gpsd (macOS) to run this test"
    ),
    .timeLimit(.minutes(1))
)
struct GPSDEndToEndTests {
    /// `poi` as the user runs it: the built executable, launched.
    static let poi = ProgramUnderTest.poi(.launched)

    @Test("Without --lat and --long, poi asks gpsd and lists the places near the receiver's position")
    func nearbyFromGPSD() async throws {
        let (result, gpsdStatus) = try await Self.withGPSD { port in
            // gpsd has the track's fix, and the port is known to be its own: poi's POLL gets the fix at once.
            try await Self.nearby(gpsdPort: port)
        }
        #expect(gpsdStatus == 0, "gpsd stopped cleanly on SIGTERM")
        Self.expectPlacesNearTheTrack(result)
    }

    @Test("gpsd going away mid-stream, before a fix: poi nearby says so in one line, with status 80")
    func gpsdGoesAway() async throws {
        // A stand-in gpsd that greets, acknowledges the watch, sends one report without a position, and hangs up.
        let gpsd = try FakeGPSD(script: [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":1}"#,
        ])
        defer { gpsd.stop() }
        let result = try await Self.nearby(gpsdPort: gpsd.port)
        #expect(result.status == 80, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(
            result.standardError == "poi: no location: gpsd closed the connection before it reported a position\n",
            "\(result.standardError)")
    }

    /// Starts gpsd on a port of its own, gives it the recorded track through a `NetworkGPSReceiver`, runs `body` once
    /// gpsd reports the track's fix, and stops gpsd; returns `body`'s result and gpsd's exit status.
    ///
    /// gpsd binds its client port itself and cannot bind port 0, so the test picks a free port and releases it for
    /// gpsd; another process may take it in between. So the port is proven to be gpsd's before `body` runs: gpsd
    /// connected to this test's receiver, and a watcher on that port saw gpsd report the fix of this test's track.
    /// A port that fails the proof (gpsd could not bind it, or something else answers there) is given up, gpsd is
    /// stopped, and the next attempt takes a new port, three attempts at most.
    static func withGPSD<T: Sendable>(_ body: (UInt16) async throws -> T) async throws -> (result: T, exitStatus: Int32)
    {
        var failures: [String] = []
        for _ in 1...3 {
            let receiver = try NetworkGPSReceiver()
            defer { receiver.stop() }
            let (probe, port) = try Socket.bind(host: "127.0.0.1", port: 0)
            probe.close()
            // -N foreground, -n open the device now, -b read-only (send the receiver nothing), -S the client port.
            let (attempt, status) = try await BuiltProduct.withRunningProcess(
                gpsdExecutable!, ["-N", "-n", "-b", "-S", "\(port)", receiver.source]
            ) { _ -> Result<T, PortNotProven> in
                do {
                    try await receiver.waitForGPSD()
                    let report = try await receiver.replay(RecordedTrack.conventionCenterWalk, throughGPSDOnPort: port)
                    guard report.fix.map({ abs($0.latitude - 37.3293) < 0.0001 }) == true else {
                        return .failure(
                            PortNotProven(reason: "port \(port): gpsd reported \(report), not the track's fix"))
                    }
                } catch {
                    return .failure(PortNotProven(reason: "port \(port): \(error)"))
                }
                return .success(try await body(port))
            }
            switch attempt {
            case .success(let result): return (result, status)
            case .failure(let failure): failures.append(failure.reason)
            }
        }
        throw BuiltProduct.Failure(description: "gpsd never got a port of its own: \(failures.joined(separator: "; "))")
    }

    /// Why a port could not be shown to be the test's gpsd's.
    struct PortNotProven: Error {
        let reason: String
    }

    /// Runs `poi nearby` without coordinates, so that it asks the gpsd on `gpsdPort`.
    static func nearby(gpsdPort: UInt16) async throws -> BuiltProduct.Result {
        try await Self.poi.run(["nearby", "--limit", "2"], environment: ["POI_GPSD_PORT": "\(gpsdPort)"])
    }

    /// Checks that `poi nearby` succeeded and listed the places near `RecordedTrack.conventionCenterWalk`.
    static func expectPlacesNearTheTrack(_ result: BuiltProduct.Result) {
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first?.hasPrefix("Places near 37.32") == true, "\(result.standardOutput)")
        #expect(lines.dropFirst().first?.hasSuffix("San Jose McEnery Convention Center  (venue)") == true)
    }
}
