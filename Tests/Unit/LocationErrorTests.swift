import POICommandLine
import POILocation
import Testing

/// What the location errors and the command line's errors say, as a user reads them.
@Suite("Error messages")
struct LocationErrorTests {
    @Test(
        "No fix names gpsd's last fix mode in words",
        arguments: [(1, "no fix"), (2, "2D fix"), (3, "3D fix"), (0, "unknown"), (4, "unknown")]
    )
    func noFixModes(mode: Int, name: String) {
        #expect(
            LocationError.noFix(mode: mode).description
                == "gpsd has no position fix (last mode \(mode): \(name)): wait for the receiver to see satellites")
    }

    @Test("A command line error prints as its message, as poi writes it after 'poi: '")
    func commandLineErrorDescription() {
        let error = CommandLineError(.usage, "--lat and --long go together")
        #expect(error.description == "--lat and --long go together")
        #expect("\(error)" == "--lat and --long go together")
    }
}
