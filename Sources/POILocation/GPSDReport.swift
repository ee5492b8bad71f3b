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

    private struct Fields: Decodable {
        var `class`: String
        var release: String?
        var mode: Int?
        var lat: Double?
        var lon: Double?
        var message: String?
        var tpv: [PositionFields]?
    }

    private struct PositionFields: Decodable {
        var mode: Int?
        var lat: Double?
        var lon: Double?
    }

    /// Parses one line that gpsd sent, without its newline.
    public init(line: String) throws(ParseError) {
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(line.utf8))
        } catch {
            let excerpt = line.count > 60 ? line.prefix(60) + "…" : Substring(line)
            throw ParseError(description: "not a gpsd JSON report: \(excerpt)")
        }
        switch fields.class {
        case "VERSION":
            self = .version(release: fields.release ?? "unknown")
        case "TPV":
            self = .position(mode: fields.mode ?? 0, latitude: fields.lat, longitude: fields.lon)
        case "POLL":
            let positions = (fields.tpv ?? []).map { tpv in
                GPSDReport.position(mode: tpv.mode ?? 0, latitude: tpv.lat, longitude: tpv.lon)
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
