/// What a command is, declared once: its options, the environment it reads and its exit statuses.
///
/// The parser's table (`parse(_:)`), the usage line, the help and the usage errors are all made from it, so they
/// cannot drift apart. A command of `poi` is named `poi nearby` and points at `poi help nearby`; a program of its
/// own, such as `poi-server`, points at `poi-server --help`.
public struct CommandDescription: Sendable {
    /// How a user types the command: `poi nearby`, `poi-server`.
    public let name: String
    /// The command that shows this command's help, named in usage errors.
    public let helpCommand: String
    /// What the command does, in one sentence.
    public let abstract: String
    /// Its options, in the help's order.
    public let options: [Option]
    /// What follows the options on the usage line, for example `[COMMAND]`; empty when nothing may.
    public let arguments: String
    /// The environment variables it reads.
    public let environment: [EnvironmentVariable]
    /// Paragraphs shown after the options, before the environment.
    public let discussion: [String]
    /// Command lines to try.
    public let examples: [String]
    /// The exit statuses it can end with, in the help's order.
    public let exitCodes: [ExitCode]

    /// Declares a command.
    public init(
        name: String,
        helpCommand: String,
        abstract: String,
        options: [Option] = [],
        arguments: String = "",
        environment: [EnvironmentVariable] = [],
        discussion: [String] = [],
        examples: [String] = [],
        exitCodes: [ExitCode] = [.success, .usage]
    ) {
        self.name = name
        self.helpCommand = helpCommand
        self.abstract = abstract
        self.options = options
        self.arguments = arguments
        self.environment = environment
        self.discussion = discussion
        self.examples = examples
        self.exitCodes = exitCodes
    }

    /// A usage error: the message, then where the help is.
    public func usageError(_ message: String) -> CommandLineError {
        CommandLineError(.usage, "\(message) (see '\(helpCommand)')")
    }

    /// The usage line: `poi nearby [--lat DEGREES] [--long DEGREES] ...`.
    public var usage: String {
        ([name] + options.map(\.usage) + (arguments.isEmpty ? [] : [arguments])).joined(separator: " ")
    }

    /// The whole help: what it does, usage, options, discussion, environment, examples and exit statuses.
    public var help: String {
        var sections = ["\(name): \(abstract)", "Usage: \(usage)"]
        if !options.isEmpty {
            sections.append(Self.table("Options:", options.map { ($0.spelling, $0.helpText) }))
        }
        sections += discussion
        if !environment.isEmpty {
            sections.append(Self.table("Environment:", environment.map { ($0.name, $0.summary) }))
        }
        if !examples.isEmpty {
            sections.append((["Examples:"] + examples.map { "  \($0)" }).joined(separator: "\n"))
        }
        sections.append(Self.table("Exit status:", exitCodes.map { ("\($0.rawValue)", $0.summary) }))
        return sections.joined(separator: "\n\n")
    }

    /// A heading, then one line a row with the second column aligned.
    static func table(_ heading: String, _ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        let lines = rows.map { left, right in
            "  \(left)\(String(repeating: " ", count: width - left.count))  \(right)"
        }
        return ([heading] + lines).joined(separator: "\n")
    }

    /// Whether `arguments` ask for this command's help: `--help` or `-h` where an option stands, not as the value of
    /// an option that takes one (`--data --help` names a file) and not after `--`, which ends the options.
    public func asksForHelp(_ arguments: [String]) -> Bool {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return false }
            if argument == "--help" || argument == "-h" { return true }
            if options.contains(where: { "--\($0.name)" == argument && $0.valueName != nil }) {
                index += 1  // the option's value, whatever it looks like
            }
        }
        return false
    }

    /// Parses `arguments` with this command's options; `--` ends the options.
    public func parse(_ arguments: [String]) throws(CommandLineError) -> ParsedArguments {
        var parsed = ParsedArguments(command: self)
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
            // Options take two dashes, no more, no fewer: `-lat` and `---lat` are no spelling of `--lat`.
            guard argument.hasPrefix("--"), !argument.hasPrefix("---") else {
                let dashes = argument.prefix { $0 == "-" }.count
                let name = argument.dropFirst(dashes).prefix { $0 != "=" }
                let hint = options.contains { $0.name == name } ? " (options take two dashes: --\(name))" : ""
                throw usageError("unknown option \(argument) for '\(self.name)'\(hint)")
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard let option = options.first(where: { $0.name == name }) else {
                throw usageError("unknown option \(argument) for '\(self.name)'")
            }
            guard option.valueName != nil else {
                guard inlineValue == nil else { throw usageError("--\(name) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            guard parsed.values[name] == nil else { throw usageError("--\(name) is given twice") }
            if let inlineValue {
                parsed.values[name] = inlineValue
            } else if index < arguments.count {
                parsed.values[name] = arguments[index]
                index += 1
            } else {
                throw usageError("--\(name) needs a value")
            }
        }
        return parsed
    }
}
