/// A command line split by `CommandDescription.parse(_:)` into positional arguments, option values and flags,
/// with typed readers whose errors name the option and point at the command's help.
///
/// The parser is small and written here: the package has no dependencies, so no swift-argument-parser.
public struct ParsedArguments: Sendable {
    /// The command the arguments were parsed for; its usage errors point at its help.
    public let command: CommandDescription
    /// The arguments that are not options, in order.
    public var positional: [String] = []
    /// `--name value` and `--name=value`, by name without dashes.
    public var values: [String: String] = [:]
    /// `--name` options that take no value, by name without dashes.
    public var flags: Set<String> = []

    /// Creates an empty result for `command`.
    public init(command: CommandDescription) {
        self.command = command
    }

    /// Whether the flag `option` was given.
    public func contains(_ option: Option) -> Bool {
        flags.contains(option.name)
    }

    /// The text given for `option`, or `nil` when it is absent.
    public func value(_ option: Option) -> String? {
        values[option.name]
    }

    /// Throws a usage error when a positional argument was given; for commands that take none.
    public func expectNoPositional() throws(CommandLineError) {
        if let extra = positional.first { throw command.usageError("unexpected argument '\(extra)'") }
    }

    /// The value of `option` as a finite number, or `nil` when it is absent.
    public func double(_ option: Option) throws(CommandLineError) -> Double? {
        guard let text = value(option) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw command.usageError("--\(option.name) must be a number, not '\(text)'")
        }
        return value
    }

    /// The value of `option` as a number of seconds more than 0 and at most `Option.maximumSeconds` (a day), or `nil`
    /// when it is absent; NaN and the infinities are outside that range.
    public func seconds(_ option: Option) throws(CommandLineError) -> Double? {
        guard let text = value(option) else { return nil }
        guard let value = Double(text), value > 0, value <= Option.maximumSeconds else {
            let maximum = Option.text(Option.maximumSeconds)
            throw command.usageError(
                "--\(option.name) must be a number of seconds more than 0 and at most \(maximum) (a day), not '\(text)'"
            )
        }
        return value
    }

    /// The value of `option` as a whole number of at least `minimum`, or `nil` when it is absent.
    public func integer(_ option: Option, minimum: Int) throws(CommandLineError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let value = Int(text), value >= minimum else {
            throw command.usageError("--\(option.name) must be a whole number of at least \(minimum), not '\(text)'")
        }
        return value
    }
}
