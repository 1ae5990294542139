// The files `rulebench new NAME` writes, with NAME (and the scenario's
// reference to the pack) substituted. They follow rules/template, so a new
// pack starts from the same small race game the README's tutorial uses;
// `dash` here also has an animation of its own. The files themselves are
// in Templates/, embedded at build time.

/// The contents of a new pack's files.
enum ScaffoldTemplate {
    /// Replaced by the pack's name.
    static let namePlaceholder = "%NAME%"
    /// Replaced by how the scenario names the pack (its name or a relative path).
    static let rulesPlaceholder = "%RULES%"

    static let pack = String(decoding: PackageResources.pack_lua, as: UTF8.self)
    static let track = String(decoding: PackageResources.track_lua, as: UTF8.self)
    static let step = String(decoding: PackageResources.step_lua, as: UTF8.self)
    static let dash = String(decoding: PackageResources.dash_lua, as: UTF8.self)
    static let scenario = String(decoding: PackageResources.first_yaml, as: UTF8.self)
}
