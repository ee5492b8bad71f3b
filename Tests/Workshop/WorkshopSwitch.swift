import Foundation
import Testing

/// Whether the hidden tests of a workshop exercise are switched on: `POI_WORKSHOP=<name>` (or `all`).
///
/// `scripts/workshop check <name>` sets it. Off, the exercises' tests are skipped and say how to switch them on.
enum WorkshopSwitch {
    static func isOn(_ exercise: String) -> Bool {
        let value = ProcessInfo.processInfo.environment["POI_WORKSHOP"] ?? ""
        return value == exercise || value == "all"
    }

    static func reason(_ exercise: String) -> Comment {
        "a workshop exercise: run 'scripts/workshop check \(exercise)' to switch its tests on"
    }
}
