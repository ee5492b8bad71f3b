/// One option of a command, declared once: the parser's table, the usage line and the help are all made from it.
///
/// A command keeps its options as `static let` constants and reads their values through them
/// (`parsed.double(NearbyCommand.latitude)`), so a name is spelt in one place only.
public struct Option: Hashable, Sendable {
    /// The name without dashes: `lat` for `--lat`.
    public let name: String
    /// What the value stands for in the help (`DEGREES`); `nil` for a flag, which takes no value.
    public let valueName: String?
    /// What the option does, for the help.
    public let summary: String
    /// The value used when the option is absent, as the help shows it; `nil` when absence means something else
    /// (the summary then says what).
    public let defaultValue: String?

    /// An option that takes a value: `--name VALUE` or `--name=VALUE`.
    public static func value(
        _ name: String, _ valueName: String, _ summary: String, default defaultValue: String? = nil
    )
        -> Option
    {
        Option(name: name, valueName: valueName, summary: summary, defaultValue: defaultValue)
    }

    /// An option that takes no value: `--name`.
    public static func flag(_ name: String, _ summary: String) -> Option {
        Option(name: name, valueName: nil, summary: summary, defaultValue: nil)
    }

    /// The option as the usage line shows it: `[--lat DEGREES]`, `[--json]`.
    var usage: String {
        "[\(spelling)]"
    }

    /// `--lat DEGREES`, or `--json` for a flag.
    var spelling: String {
        valueName.map { "--\(name) \($0)" } ?? "--\(name)"
    }

    /// The help's text for the option: its summary and, when it has one, its default.
    var helpText: String {
        defaultValue.map { "\(summary) (default \($0))" } ?? summary
    }
}
