/// This release of Rulebench: what `rulebench --version` prints and what
/// the machine-readable reports name as their producer.
///
/// Raise it with every release: the minor number when a report or file
/// format gains something, the major number when one changes incompatibly.
/// (Not `RulebenchVersion`: symbol graphs leave out a module's
/// `<Module>Version...` names, so DocC could not document it.)
public enum RulebenchRelease {
    /// The version, as `MAJOR.MINOR.PATCH`.
    public static let version = "0.1.0"
}
