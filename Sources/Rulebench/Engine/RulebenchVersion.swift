/// The version of Rulebench: what `rulebench --version` prints and what the
/// machine-readable reports name as their producer.
///
/// Raise it with every release: the minor number when a report or file
/// format gains something, the major number when one changes incompatibly.
public enum RulebenchVersion {
    /// The version, as `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
