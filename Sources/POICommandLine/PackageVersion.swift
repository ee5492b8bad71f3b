/// The package's version, which `poi --version` and `poi-server --version` print.
public enum PackageVersion {
    /// The version, as semantic versioning spells it.
    public static let current = "1.0.0"
}
