import POIDomain

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

    /// The value of `option` as a number, or `nil` when it is absent.
    ///
    /// A number is a decimal numeral (`Numeral.double(_:)`): `inf`, `nan` and `0x10` are usage errors. One past a
    /// `Double` (`1e400`) reads as ±infinity, which the caller's range turns down as it turns down any number past it.
    public func double(_ option: Option) throws(CommandLineError) -> Double? {
        guard let text = value(option) else { return nil }
        guard let value = Numeral.double(text) else {
            throw command.usageError("--\(option.name) must be a number, not '\(text)'")
        }
        return value
    }

    /// The value of `option` as a number of seconds more than 0 and at most `Option.maximumSeconds` (a day), or `nil`
    /// when it is absent.
    ///
    /// A decimal numeral (`Numeral.double(_:)`); one more than 0 and too small for a `Double` (`1e-400`) reads as the
    /// least positive `Double`, a wait no clock tells from none, and one past a `Double` is more than a day.
    public func seconds(_ option: Option) throws(CommandLineError) -> Double? {
        guard let text = value(option) else { return nil }
        guard let value = Numeral.double(text), Numeral.isPositive(text), value <= Option.maximumSeconds else {
            let maximum = Option.text(Option.maximumSeconds)
            throw command.usageError(
                "--\(option.name) must be a number of seconds more than 0 and at most \(maximum) (a day), not '\(text)'"
            )
        }
        return Swift.max(value, .leastNonzeroMagnitude)
    }

    /// The value of `option` as a whole number from `minimum` to `maximum`, or `nil` when it is absent.
    ///
    /// A whole number in digits, of any size (`Numeral.wholeNumber(_:)`). Without a `maximum` one past `Int.max` reads
    /// as `Int.max`: a count the option cannot reach (more places than a list holds, more rotations than a run lasts),
    /// so 27 digits give what `Int.max` gives. With one, a number past it is a usage error that says the bound.
    public func integer(_ option: Option, minimum: Int, maximum: Int? = nil) throws(CommandLineError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let value = Numeral.wholeNumber(text), value >= minimum, value <= maximum ?? .max else {
            let range = maximum.map { "from \(minimum) to \($0)" } ?? "of at least \(minimum)"
            throw command.usageError("--\(option.name) must be a whole number \(range), not '\(text)'")
        }
        return value
    }
}
