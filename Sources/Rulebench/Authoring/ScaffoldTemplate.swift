// The files `rulebench new NAME` writes. The pack's files are rules/template
// itself (Templates/ links to them, embedded at build time), with the
// template's name replaced by NAME, so a new pack starts from the same small
// race game the README's tutorial uses and cannot drift from it; the first
// scenario is Templates/first.yaml, with NAME and the pack reference filled in;
// the short story sequence is rules/template/sequences/start.yaml.

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
    /// `sequences/start.yaml`: one short story sequence, so a new author sees the form (docs/sequences.md).
    static let sequence = String(decoding: PackageResources.start_yaml, as: UTF8.self)

    /// The name rules/template's files give their pack.
    static let templateName = "template"

    /// A file of rules/template as a new pack named `name` has it: its
    /// manifest's name, and the comments that name the pack, say `name`.
    static func renamed(_ text: String, to name: String) -> String {
        text.replacingOccurrences(of: "name = \"\(templateName)\",", with: "name = \"\(name)\",")
            .replacingOccurrences(of: "-- `rulebench new NAME` starts a pack from this folder, named NAME; change it\n-- into your own game.",
                                  with: "-- Made by `rulebench new \(name)`; change it into your own game.")
            .replacingOccurrences(of: "The \(templateName) pack", with: "The \(name) pack")
            .replacingOccurrences(of: "of the \(templateName) pack", with: "of the \(name) pack")
    }
    static let scenario = String(decoding: PackageResources.first_yaml, as: UTF8.self)
    /// Replaced by the path from the scenario's folder to the scenario schema.
    static let schemaPlaceholder = "%SCHEMA%"

    // The editor files: Templates/ links to the repository's own copies, so
    // what `new` writes is what this repository's editors use.
    /// `scenarios/scenario.schema.json`, for YAML editors.
    static let scenarioSchema = String(decoding: PackageResources.scenario_schema_json, as: UTF8.self)
    /// `lua/rulebench.d.lua`, the LuaCATS description of the Lua API.
    static let luaDefinitions = String(decoding: PackageResources.rulebench_d_lua, as: UTF8.self)
    /// `.vscode/settings.json`: scenario files get the schema (YAML extension).
    static func vscodeSettings(schema: String, scenarios: String) -> String {
        """
        {
          "yaml.schemas": { "./\(schema)": "\(scenarios)/**/*.yaml" }
        }

        """
    }
    /// `.luarc.json`: the Lua language servers read the API description.
    static func luarc(library: String) -> String {
        """
        {
          "runtime": { "version": "Lua 5.4" },
          "workspace": { "library": ["\(library)"], "ignoreDir": [".build", ".rulebench"] }
        }

        """
    }
}
