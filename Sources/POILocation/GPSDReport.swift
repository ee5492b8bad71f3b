import Foundation
public import POIDomain

/// One line of gpsd's JSON protocol (gpsd_json(5)), as far as a location fetcher cares.
public enum GPSDReport: Equatable, Sendable {
    /// The greeting gpsd sends when a client connects.
    case version(release: String)
    /// A time-position-velocity report: the fix mode and, with a fix, the position.
    case position(mode: Int, latitude: Double?, longitude: Double?)
    /// The answer to `?POLL;`: gpsd's latest TPV report of each active device, each a `.position`; empty while no
    /// device is active or none has reported yet.
    case poll(positions: [GPSDReport])
    /// gpsd reports an error, for example an unknown command.
    case error(message: String)
    /// Any other class of report (SKY, DEVICES, WATCH, …), which a location fetcher skips.
    case other(className: String)

    /// Why a line is not a gpsd report.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What was wrong with the line.
        public let description: String
    }

    /// gpsd's fix modes (gpsd_json(5)): 0 none seen yet, 1 no fix, 2 a 2D fix, 3 a 3D fix.
    ///
    /// A TPV report whose mode is any other number (4, 2.5, -1, 2^64, 27 digits) is not a report gpsd sends, and is
    /// turned down with a `ParseError` that says so: not read as a fix because it is 2 or more, nor refused as "not
    /// JSON" because `Int` cannot hold it.
    public static let modes = 0...3

    private struct Fields: Decodable {
        var `class`: String
        var release: String?
        /// Any JSON number a `Double` holds, so that a mode `Int` cannot hold is told apart from a line that is not JSON.
        var mode: Double?
        var lat: Double?
        var lon: Double?
        var message: String?
        var tpv: [PositionFields]?
    }

    private struct PositionFields: Decodable {
        var mode: Double?
        var lat: Double?
        var lon: Double?
    }

    /// Parses one line that gpsd sent, without its newline.
    public init(line: String) throws(ParseError) {
        let fields: Fields
        let excerpt = line.count > 60 ? line.prefix(60) + "…" : Substring(line)
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(line.utf8))
        } catch {
            throw ParseError(description: "not a gpsd JSON report: \(excerpt)")
        }
        /// The report's mode, 0 when it has none; any number but gpsd's is no report of gpsd's.
        func mode(_ value: Double?) throws(ParseError) -> Int {
            guard let value else { return 0 }
            guard let mode = Int(exactly: value), Self.modes.contains(mode) else {
                throw ParseError(
                    description: "not a gpsd report: its mode is none of gpsd's, 0 to 3: \(excerpt)")
            }
            return mode
        }
        switch fields.class {
        case "VERSION":
            self = .version(release: fields.release ?? "unknown")
        case "TPV":
            self = .position(mode: try mode(fields.mode), latitude: fields.lat, longitude: fields.lon)
        case "POLL":
            var positions: [GPSDReport] = []
            for tpv in fields.tpv ?? [] {
                positions.append(.position(mode: try mode(tpv.mode), latitude: tpv.lat, longitude: tpv.lon))
            }
            self = .poll(positions: positions)
        case "ERROR":
            self = .error(message: fields.message ?? "unknown error")
        default:
            self = .other(className: fields.class)
        }
    }

    /// The position of a TPV report with a 2D or 3D fix and a valid latitude and longitude, or the first such
    /// position of a POLL answer; else `nil`.
    public var fix: Coordinate? {
        switch self {
        case .position(let mode, let latitude?, let longitude?) where mode >= 2:
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            return coordinate.isValid ? coordinate : nil
        case .poll(let positions):
            return positions.lazy.compactMap(\.fix).first
        default:
            return nil
        }
    }
}
