public import Testing

/// One class or boundary of one input, as the argument of a parameterized test.
///
/// An input (an option, an environment variable, a query parameter, a gpsd report, the data file...) has valid
/// values and invalid ones, and boundaries between them; a value may hold the separator the parser splits on, be
/// empty, or be huge. A test that takes `InputCase`s says which of those each of its cases is, and Swift Testing
/// shows it in the case's name: `⟨poi nearby --limit⟩ boundary: 5, as many as there are places`. `scripts/tool inputs`
/// reads those names from a run's report and writes the table of `docs/inputs.md`: for each input, each class and
/// boundary, and the test case that covers it; and it fails when an input the programs or the API read has a kind
/// of value no case covers.
///
/// ```swift
/// @Test(arguments: [
///     InputCase("poi nearby --limit", .boundary, "1, the least", value: "1"),
///     InputCase("poi nearby --limit", .invalid, "0", value: "0"),
/// ])
/// func limit(_ input: InputCase<String>) throws { ... }
/// ```
public struct InputCase<Value: Sendable>: Sendable, CustomTestStringConvertible {
    /// What kind of value a case gives its input.
    public enum Kind: String, Sendable, CaseIterable {
        /// A value of a class the input accepts.
        case valid
        /// A value of a class the input turns down.
        case invalid
        /// The last value accepted, or the first turned down, at the edge of a class.
        case boundary
        /// A value holding the character the input is split on (`=`, `&`, `,`, a newline).
        case separator
        /// No value at all, or an empty one.
        case empty
        /// A value far larger than any use: many digits, many bytes, many places.
        case huge
        /// The input given with another that sets the same value, in one order or the other.
        case pair
        /// The input changed over time: set, reset, set to the same value again.
        case state
    }

    /// The input, as the docs name it: `poi nearby --limit`, `GET /locations limit`, `gpsd TPV report`.
    public let input: String
    /// The kind of value.
    public let kind: Kind
    /// The class or boundary in a few words: `5, as many as there are places`.
    public let label: String
    /// What the test gives the input, and what it expects back when it needs to be told.
    public let value: Value

    /// A case of `input`: its `kind`, `label` and `value`.
    public init(_ input: String, _ kind: Kind, _ label: String, value: Value) {
        self.input = input
        self.kind = kind
        self.label = label
        self.value = value
    }

    /// The case's name in Swift Testing's output, which `scripts/tool inputs` reads: `⟨INPUT⟩ KIND: LABEL`.
    public var testDescription: String {
        "⟨\(input)⟩ \(kind.rawValue): \(label)"
    }
}
