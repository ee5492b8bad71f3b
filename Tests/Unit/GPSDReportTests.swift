import POIDomain
import POILocation
import Testing

/// Parsing gpsd's JSON reports (gpsd_json(5)); the lines are in the shapes gpsd 3.x sends.
@Suite("GPSDReport")
struct GPSDReportTests {
    @Test("The VERSION greeting")
    func version() throws {
        let line = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
        #expect(try GPSDReport(line: line) == .version(release: "3.22"))
    }

    @Test("A TPV report with a 3D fix gives its position")
    func tpvWithFix() throws {
        let line = """
            {"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2018-06-05T17:00:00.000Z","ept":0.005,\
            "lat":37.329300000,"lon":-121.889300000,"altHAE":25.3,"eph":8.2,"epv":12.1,"track":10.3,\
            "speed":0.091,"climb":-0.085}
            """
        let report = try GPSDReport(line: line)
        #expect(report == .position(mode: 3, latitude: 37.3293, longitude: -121.8893))
        #expect(report.fix == Coordinate(latitude: 37.3293, longitude: -121.8893))
    }

    @Test("A TPV report with a 2D fix gives its position")
    func tpv2D() throws {
        let report = try GPSDReport(line: #"{"class":"TPV","device":"/dev/pts/1","mode":2,"lat":46.5,"lon":7.5}"#)
        #expect(report.fix == Coordinate(latitude: 46.5, longitude: 7.5))
    }

    @Test(
        "TPV reports without a fix give no position",
        arguments: [
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":1}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":0,"time":"2018-06-05T17:00:00.000Z"}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3}"#,
            #"{"class":"TPV","mode":3,"lat":137.0,"lon":0.0}"#,
        ]
    )
    func tpvWithoutFix(line: String) throws {
        let report = try GPSDReport(line: line)
        guard case .position = report else {
            Issue.record("expected a position report, got \(report)")
            return
        }
        #expect(report.fix == nil)
    }

    @Test(
        "A mode that is none of gpsd's is said to be so, even one Int cannot hold, not called 'not JSON'",
        arguments: ["4", "-1", "2.5", "9223372036854775808", "456529149269160342363045888"]
    )
    func modeNotGPSDs(mode: String) {
        let line = #"{"class":"TPV","mode":"# + mode + "}"
        let error = #expect(throws: GPSDReport.ParseError.self) { try GPSDReport(line: line) }
        #expect(error?.description == "not a gpsd report: its mode is none of gpsd's, 0 to 3: \(line)")
    }

    @Test("SKY, DEVICES and WATCH reports are other classes, skipped by a fetcher")
    func otherClasses() throws {
        let sky = """
            {"class":"SKY","device":"/dev/ttyUSB0","xdop":0.54,"ydop":0.77,"hdop":0.93,"pdop":1.65,\
            "satellites":[{"PRN":5,"el":31,"az":86,"ss":32,"used":true},{"PRN":13,"el":44,"az":59,"ss":0,"used":false}]}
            """
        #expect(try GPSDReport(line: sky) == .other(className: "SKY"))
        let devices = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"NMEA0183"}]}"#
        #expect(try GPSDReport(line: devices) == .other(className: "DEVICES"))
        let watch = #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false}"#
        #expect(try GPSDReport(line: watch) == .other(className: "WATCH"))
    }

    @Test("A POLL answer carries gpsd's latest TPV report of each device; its fix is the first with one")
    func pollWithFix() throws {
        // As gpsd 3.22 answers `?POLL;` once a networked receiver has reported a position.
        let line = """
            {"class":"POLL","time":"2026-11-21T11:30:35.613Z","active":2,"tpv":[\
            {"class":"TPV","device":"/dev/ttyUSB1","mode":1},\
            {"class":"TPV","device":"tcp://127.0.0.1:47747","mode":3,"time":"2018-06-05T17:00:00.000Z",\
            "ept":0.005,"lat":37.329300000,"lon":-121.889300000,"altHAE":25.000}],"gst":[],"sky":[]}
            """
        let report = try GPSDReport(line: line)
        #expect(
            report
                == .poll(positions: [
                    .position(mode: 1, latitude: nil, longitude: nil),
                    .position(mode: 3, latitude: 37.3293, longitude: -121.8893),
                ])
        )
        #expect(report.fix == Coordinate(latitude: 37.3293, longitude: -121.8893))
    }

    @Test("Of several devices with a fix, a POLL answer's fix is the first one's, whatever the modes")
    func pollWithSeveralFixes() {
        let report = GPSDReport.poll(positions: [
            .position(mode: 1, latitude: nil, longitude: nil),
            .position(mode: 2, latitude: 46.5, longitude: 7.5),
            .position(mode: 3, latitude: 37.3293, longitude: -121.8893),
        ])
        #expect(report.fix == Coordinate(latitude: 46.5, longitude: 7.5))
    }

    @Test(
        "A POLL answer before any fix gives no position",
        arguments: [
            #"{"class":"POLL","time":"2026-11-21T11:30:35.612Z","active":0,"tpv":[],"gst":[],"sky":[]}"#,
            #"{"class":"POLL","time":"2026-11-21T11:30:35.612Z","active":1,"tpv":[{"class":"TPV","mode":1}]}"#,
            #"{"class":"POLL","active":0}"#,
        ]
    )
    func pollWithoutFix(line: String) throws {
        let report = try GPSDReport(line: line)
        guard case .poll = report else {
            Issue.record("expected a POLL answer, got \(report)")
            return
        }
        #expect(report.fix == nil)
    }

    @Test("An ERROR report carries gpsd's message")
    func errorReport() throws {
        let line = #"{"class":"ERROR","message":"Unrecognized request '?FOO'"}"#
        #expect(try GPSDReport(line: line) == .error(message: "Unrecognized request '?FOO'"))
    }

    @Test(
        "Lines that are not gpsd reports are rejected with the line in the message",
        arguments: [
            "", "garbage", "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47", "[1,2]",
            #"{"mode":3}"#, #"{"class":42}"#, #"{"class":"TPV","mode":"three"}"#,
        ]
    )
    func garbage(line: String) {
        #expect(Self.excerpt(String(repeating: "x", count: 60)) == String(repeating: "x", count: 60))
        #expect(Self.excerpt(String(repeating: "x", count: 61)) == String(repeating: "x", count: 60) + "…")
        let error = #expect(throws: GPSDReport.ParseError.self) { try GPSDReport(line: line) }
        #expect(error?.description.hasPrefix("not a gpsd JSON report: \(line.prefix(20))") == true)
    }

    /// The part of a line that is not a report which the error message quotes.
    static func excerpt(_ line: String) -> String? {
        do {
            _ = try GPSDReport(line: line)
            return nil
        } catch {
            return String(error.description.dropFirst("not a gpsd JSON report: ".count))
        }
    }

    @Test("The fetcher's default port is gpsd's well-known port, 2947 (IANA's assignment)")
    func defaultPort() {
        #expect(GPSDLocationFetcher.defaultPort == 2947)
    }
}
