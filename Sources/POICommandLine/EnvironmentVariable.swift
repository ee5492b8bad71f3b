/// An environment variable a command reads, declared once: the help lists it and the command reads it through it.
public struct EnvironmentVariable: Hashable, Sendable {
    /// The variable's name, for example `POI_SERVER_URL`.
    public let name: String
    /// What it changes, for the help.
    public let summary: String

    /// Declares the variable `name`.
    public init(_ name: String, _ summary: String) {
        self.name = name
        self.summary = summary
    }
}

extension [String: String] {
    /// The value of `variable` in this environment.
    public subscript(variable: EnvironmentVariable) -> String? {
        self[variable.name]
    }
}
