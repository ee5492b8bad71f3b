extension Option {
    /// An option that takes a number of seconds, whose default is `seconds`: `10`, `0.5`.
    public static func seconds(_ name: String, _ summary: String, default seconds: Double) -> Option {
        .value(name, "SECONDS", summary, default: Self.text(seconds))
    }

    /// A number as a person writes it: without `.0` when it is a whole number an `Int` holds.
    static func text(_ number: Double) -> String {
        Int(exactly: number).map(String.init) ?? String(number)
    }
}
