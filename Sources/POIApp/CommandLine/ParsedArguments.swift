/// A command line split into positional arguments, options with values and flags, by a small parser written here
/// (the package has no dependencies, so no swift-argument-parser).
public struct ParsedArguments: Equatable, Sendable {
    /// The arguments that are not options, in order.
    public var positional: [String] = []
    /// `--name value` and `--name=value`, by name without dashes.
    public var values: [String: String] = [:]
    /// `--name` options that take no value, by name without dashes.
    public var flags: Set<String> = []

    /// Parses `arguments` for `command` (a command of `poi`, or "poi-server").
    ///
    /// The command accepts the options `valueOptions` (each followed by a value) and the flags `flags`; `--` ends
    /// the options.
    public static func parse(
        _ arguments: [String],
        command: String,
        valueOptions: Set<String>,
        flags: Set<String>
    ) throws(CommandLineError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                parsed.positional += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-", Double(argument) == nil else {
                parsed.positional.append(argument)
                continue
            }
            let body = argument.drop { $0 == "-" }
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            if flags.contains(name) {
                guard inlineValue == nil else {
                    throw .usage("--\(name) takes no value", command: command)
                }
                parsed.flags.insert(name)
            } else if valueOptions.contains(name) {
                guard parsed.values[name] == nil else {
                    throw .usage("--\(name) is given twice", command: command)
                }
                if let inlineValue {
                    parsed.values[name] = inlineValue
                } else if index < arguments.count {
                    parsed.values[name] = arguments[index]
                    index += 1
                } else {
                    throw .usage("--\(name) needs a value", command: command)
                }
            } else {
                throw .usage(
                    "unknown option \(argument) for '\(CommandLineError.displayName(of: command))'", command: command)
            }
        }
        return parsed
    }

    /// The value of `--name` as a number, or `nil` when the option is absent.
    public func double(_ name: String, command: String) throws(CommandLineError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw .usage("--\(name) must be a number, not '\(text)'", command: command)
        }
        return value
    }

    /// The value of `--name` as a whole number of at least `minimum`, or `nil` when the option is absent.
    public func integer(_ name: String, minimum: Int, command: String) throws(CommandLineError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), value >= minimum else {
            throw .usage("--\(name) must be a whole number of at least \(minimum), not '\(text)'", command: command)
        }
        return value
    }
}
