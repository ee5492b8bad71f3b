extension Option {
    /// The most seconds an option in seconds takes: a day.
    ///
    /// No wait of poi or poi-server needs more, and much longer ones break the programs: URLSession crashes on a
    /// timeout of 1e300 seconds, a count of milliseconds overflows, and a timer that far away never fires.
    public static let maximumSeconds: Double = 86_400

    /// An option that takes a number of seconds, more than 0 and at most `maximumSeconds` (the help says so), whose
    /// default is `seconds`: `10`, `0.5`.
    public static func seconds(_ name: String, _ summary: String, default seconds: Double) -> Option {
        .value(name, "SECONDS", "\(summary), at most \(text(maximumSeconds))", default: Self.text(seconds))
    }

    /// A number as a person writes it: without `.0` when it is a whole number an `Int` holds.
    static func text(_ number: Double) -> String {
        Int(exactly: number).map(String.init) ?? String(number)
    }
}
