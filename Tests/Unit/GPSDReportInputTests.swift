import Foundation
import POICommandLine
import POIDomain
import POILocation
import POIServer
import PortableTestSupport
import Testing

@testable import POINetworking
@testable import POIServerCommand

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// gpsd's reports, by class and boundary: what position each kind of line gives.
///
/// docs/inputs.md lists the cases (scripts/tool inputs).
@Suite("gpsd's reports, by class and boundary")
struct GPSDReportInputTests {

    /// A line gpsd sends, and the position it must give (`nil`: none), or `.failure` when it is not a report.
    struct Report: Sendable {
        var line: String
        var fix: Coordinate?
        var isReport = true
    }

    static func report(
        _ kind: InputCase<Report>.Kind, _ label: String, _ line: String, fix: Coordinate? = nil, isReport: Bool = true
    ) -> InputCase<Report> {
        InputCase("gpsd report", kind, label, value: Report(line: line, fix: fix, isReport: isReport))
    }

    static let here = Coordinate(latitude: 37.3293, longitude: -121.8893)

    static let reportCases = [
        report(.valid, "TPV with a 3D fix", #"{"class":"TPV","mode":3,"lat":37.3293,"lon":-121.8893}"#, fix: here),
        report(
            .boundary, "TPV with a 2D fix, the least that counts",
            #"{"class":"TPV","mode":2,"lat":37.3293,"lon":-121.8893}"#, fix: here),
        report(
            .boundary, "TPV with mode 1, no fix, still carrying coordinates",
            #"{"class":"TPV","mode":1,"lat":37.3293,"lon":-121.8893}"#),
        report(
            .boundary, "TPV with mode 0, unknown, still carrying coordinates",
            #"{"class":"TPV","mode":0,"lat":37.3293,"lon":-121.8893}"#),
        report(.invalid, "TPV with no mode, carrying coordinates", #"{"class":"TPV","lat":37.3293,"lon":-121.8893}"#),
        report(
            .valid, "TPV with mode 3.0, the number 3", #"{"class":"TPV","mode":3.0,"lat":37.3293,"lon":-121.8893}"#,
            fix: here),
        report(
            .boundary, "TPV with mode -0, negative zero: mode 0, no fix",
            #"{"class":"TPV","mode":-0,"lat":37.3293,"lon":-121.8893}"#),
        report(
            .boundary, "TPV with mode 4, past gpsd's: not a report, no fix",
            #"{"class":"TPV","mode":4,"lat":37.3293,"lon":-121.8893}"#, isReport: false),
        report(
            .invalid, "TPV with mode 2.5: not a report", #"{"class":"TPV","mode":2.5,"lat":37.3293,"lon":-121.8893}"#,
            isReport: false),
        report(
            .huge, "TPV with mode 2^64: not a report, no fix",
            #"{"class":"TPV","mode":18446744073709551616,"lat":37.3293,"lon":-121.8893}"#, isReport: false),
        report(
            .huge, "TPV with a mode of 27 digits: not a report",
            #"{"class":"TPV","mode":456529149269160342363045888,"lat":37.3293,"lon":-121.8893}"#, isReport: false),
        report(
            .huge, "TPV with mode 1e400, past a Double: not a report",
            #"{"class":"TPV","mode":1e400,"lat":37.3293,"lon":-121.8893}"#, isReport: false),
        report(
            .huge, "TPV with a fix and latitude 1e400, past a Double: not a report",
            #"{"class":"TPV","mode":3,"lat":1e400,"lon":-121.8893}"#, isReport: false),
        report(
            .huge, "POLL whose one device has mode 2^63: not a report",
            #"{"class":"POLL","tpv":[{"mode":9223372036854775808,"lat":37.3293,"lon":-121.8893}]}"#, isReport: false),
        report(.invalid, "TPV with a fix and no longitude", #"{"class":"TPV","mode":3,"lat":37.3293}"#),
        report(.invalid, "TPV with a fix and a latitude out of range", #"{"class":"TPV","mode":3,"lat":91,"lon":0}"#),
        report(
            .boundary, "TPV with a fix at the pole and the date line", #"{"class":"TPV","mode":3,"lat":90,"lon":180}"#,
            fix: Coordinate(latitude: 90, longitude: 180)),
        report(.invalid, "not JSON", "GPSD,O=?", isReport: false),
        report(.invalid, "JSON with no class", #"{"mode":3,"lat":1,"lon":2}"#, isReport: false),
        report(.empty, "an empty line", "", isReport: false),
        report(.empty, "POLL with no device", #"{"class":"POLL","tpv":[]}"#),
        report(
            .huge, "a POLL of 1,000 devices, the fix the last one's",
            #"{"class":"POLL","tpv":["# + String(repeating: #"{"mode":1},"#, count: 999)
                + #"{"mode":3,"lat":37.3293,"lon":-121.8893}]}"#, fix: here),
        report(
            .separator, "a device path holding ',' and '}' before the fix",
            #"{"class":"TPV","device":"/dev/gps,0}","mode":3,"lat":37.3293,"lon":-121.8893}"#, fix: here),
    ]

    @Test("A gpsd report: each class of line, and the position it gives", arguments: reportCases)
    func gpsdReports(_ input: InputCase<Report>) {
        let parsed = Result { () throws(GPSDReport.ParseError) in try GPSDReport(line: input.value.line) }
        switch parsed {
        case .success(let report):
            #expect(input.value.isReport)
            #expect(report.fix == input.value.fix)
        case .failure:
            #expect(!input.value.isReport)
        }
    }
}
