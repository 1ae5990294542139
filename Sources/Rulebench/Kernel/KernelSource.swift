/// The kernel's Lua files (`Sources/Rulebench/Kernel/*.lua`), embedded at
/// build time, each a module: it receives the modules it uses as its
/// arguments (its first line, `local core, state = ...`) and returns its
/// own table. This is the one table of what each receives; the order is
/// the load order, in which every module receives only modules before it,
/// so dependencies point one way and there is no cycle (checked when the
/// chunks are made, and by KernelModulesTests against each file's head).
/// Each chunk is named after its file, so a Lua error inside the kernel
/// names the file and its real line.
enum KernelSource {
    /// One kernel file: its name (the file without `.lua`), its source and
    /// the modules it receives, in the order of its head; `C` is the C helpers.
    struct Module {
        let name: String
        let source: [UInt8]
        let receives: [String]
    }

    /// Every module in load order: core first (it receives the C helpers),
    /// kernel last (it receives every module and returns `API`, the
    /// functions Swift calls). See docs/architecture.md, "The kernel".
    static let modules: [Module] = [
        .init(name: "core", source: PackageResources.core_lua, receives: ["C"]),
        .init(name: "splitmix", source: PackageResources.splitmix_lua, receives: []),
        .init(name: "protocol", source: PackageResources.protocol_lua, receives: []),
        .init(name: "state", source: PackageResources.state_lua, receives: ["core"]),
        .init(name: "identity", source: PackageResources.identity_lua, receives: ["core"]),
        .init(name: "rulebench", source: PackageResources.rulebench_lua, receives: ["core", "splitmix", "state"]),
        .init(name: "sandbox", source: PackageResources.sandbox_lua, receives: ["core", "state", "identity", "rulebench"]),
        .init(name: "anim", source: PackageResources.anim_lua, receives: ["core", "protocol", "state"]),
        .init(name: "packload", source: PackageResources.packload_lua,
              receives: ["core", "state", "identity", "sandbox", "anim"]),
        .init(name: "engine", source: PackageResources.engine_lua,
              receives: ["core", "splitmix", "state", "identity", "rulebench", "sandbox", "anim", "packload"]),
        .init(name: "history", source: PackageResources.history_lua, receives: ["core", "state", "engine"]),
        .init(name: "view", source: PackageResources.view_lua,
              receives: ["core", "protocol", "state", "sandbox", "packload", "engine"]),
        .init(name: "seats", source: PackageResources.seats_lua,
              receives: ["core", "splitmix", "state", "rulebench", "sandbox", "anim", "packload", "engine", "history", "view"]),
        .init(name: "explore", source: PackageResources.explore_lua, receives: ["core", "state", "engine"]),
        .init(name: "devaids", source: PackageResources.devaids_lua, receives: ["core"]),
        .init(name: "solve", source: PackageResources.solve_lua, receives: ["core", "state", "engine"]),
        .init(name: "unique", source: PackageResources.unique_lua, receives: ["core", "state", "engine", "solve"]),
        .init(name: "value", source: PackageResources.value_lua,
              receives: ["core", "state", "rulebench", "engine", "seats", "solve"]),
        .init(name: "choose", source: PackageResources.choose_lua, receives: ["core", "splitmix", "engine"]),
        .init(name: "fuzz", source: PackageResources.fuzz_lua,
              receives: ["core", "state", "engine", "history", "seats", "choose"]),
        .init(name: "coverage", source: PackageResources.coverage_lua, receives: ["core", "engine", "fuzz"]),
        .init(name: "kernel", source: PackageResources.kernel_lua,
              receives: ["core", "splitmix", "protocol", "state", "identity", "rulebench", "sandbox", "anim", "packload",
                         "engine", "history", "view", "seats", "explore", "devaids", "solve", "unique", "value", "choose",
                         "fuzz", "coverage"]),
    ]

    /// The modules that receive a module not loaded before them ("file
    /// receives name"): none, or the order has a cycle or a typo.
    static func misordered(_ modules: [Module]) -> [String] {
        var loaded: Set<String> = ["C"]
        var problems: [String] = []
        for module in modules {
            for name in module.receives where !loaded.contains(name) { problems.append("\(module.name) receives \(name)") }
            loaded.insert(module.name)
        }
        return problems
    }

    /// The chunks for LuaVM: each called with what its module receives
    /// (0 the C helpers, k the result of chunk k - 1).
    static let chunks: [LuaVM.Chunk] = {
        let problems = misordered(modules)
        precondition(problems.isEmpty, "kernel modules out of order: \(problems)")
        var index: [String: Int32] = ["C": 0]
        return modules.enumerated().map { offset, module in
            defer { index[module.name] = Int32(offset + 1) }
            return LuaVM.Chunk(name: "=rulebench/Kernel/\(module.name).lua", source: module.source,
                               arguments: module.receives.map { index[$0]! })
        }
    }()
}
