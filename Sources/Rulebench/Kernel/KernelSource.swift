/// The kernel's Lua files (`Sources/Rulebench/Kernel/*.lua`), embedded at
/// build time, in load order. Each chunk is named after its file, so a Lua
/// error inside the kernel names the file and its real line.
enum KernelSource {
    /// The chunks: core first (it receives the C helpers), the fuzzer's
    /// step loop last (it returns `API`, the functions Swift calls).
    static let chunks: [LuaVM.Chunk] = [
        .init(name: "=rulebench/Kernel/core.lua", source: PackageResources.core_lua),
        .init(name: "=rulebench/Kernel/splitmix.lua", source: PackageResources.splitmix_lua),
        .init(name: "=rulebench/Kernel/protocol.lua", source: PackageResources.protocol_lua),
        .init(name: "=rulebench/Kernel/state.lua", source: PackageResources.state_lua),
        .init(name: "=rulebench/Kernel/identity.lua", source: PackageResources.identity_lua),
        .init(name: "=rulebench/Kernel/sandbox.lua", source: PackageResources.sandbox_lua),
        .init(name: "=rulebench/Kernel/anim.lua", source: PackageResources.anim_lua),
        .init(name: "=rulebench/Kernel/rulebench.lua", source: PackageResources.rulebench_lua),
        .init(name: "=rulebench/Kernel/packload.lua", source: PackageResources.packload_lua),
        .init(name: "=rulebench/Kernel/engine.lua", source: PackageResources.engine_lua),
        .init(name: "=rulebench/Kernel/history.lua", source: PackageResources.history_lua),
        .init(name: "=rulebench/Kernel/seats.lua", source: PackageResources.seats_lua),
        .init(name: "=rulebench/Kernel/explore.lua", source: PackageResources.explore_lua),
        .init(name: "=rulebench/Kernel/devaids.lua", source: PackageResources.devaids_lua),
        .init(name: "=rulebench/Kernel/coverage.lua", source: PackageResources.coverage_lua),
        .init(name: "=rulebench/Kernel/solve.lua", source: PackageResources.solve_lua),
        .init(name: "=rulebench/Kernel/unique.lua", source: PackageResources.unique_lua),
        .init(name: "=rulebench/Kernel/value.lua", source: PackageResources.value_lua),
        .init(name: "=rulebench/Kernel/view.lua", source: PackageResources.view_lua),
        .init(name: "=rulebench/Kernel/choose.lua", source: PackageResources.choose_lua),
        .init(name: "=rulebench/Kernel/fuzz.lua", source: PackageResources.fuzz_lua),
    ]
}
