import Foundation
import CLua
import LuaShim

/// A Lua call that did not succeed, as the bridge saw it.
struct LuaFailure: Error {
    /// What stopped the call.
    enum Cause {
        case error, instructionBudget, memoryCap, handler
        /// The wall-clock backstop stopped it (watchdog.c): not the budget's verdict.
        case wallClock
        /// The process was asked to stop (`rb_interrupt`, from a signal handler).
        case interrupted
    }

    let cause: Cause
    /// The error message (for a script error: "file:line: message").
    let message: String
    /// The Lua traceback, when the error carried one.
    let traceback: String
    /// The fields of a kernel error object (`kind`, `action`, `at`, ...), empty for script errors.
    let fields: [String: String]

    /// The kernel's error kind ("rejected", "invariant", ...) or nil for a script error.
    var kind: String? { fields["kind"] }

    /// A failure from what the error handler left: the fields of a kernel
    /// error object, or a message with the traceback after it.
    init(cause: Cause, text: String, fields: [String: String]) {
        var text = fields.isEmpty ? text : fields["message"] ?? ""
        if cause == .memoryCap && text.isEmpty { text = "not enough memory" }
        let parts = text.components(separatedBy: "\nstack traceback:\n")
        self.cause = cause
        self.message = parts[0]
        self.traceback = parts.count > 1 ? parts[1...].joined(separator: "\n") : ""
        self.fields = fields
    }

    init(cause: Cause, message: String, traceback: String, fields: [String: String]) {
        self.cause = cause
        self.message = message
        self.traceback = traceback
        self.fields = fields
    }
}

/// Kernel calls made by every Lua state of the process: the benchmarks'
/// measure of crossings where the states are the fuzzer's own
/// (`rulebench-bench --crossings`). Nothing else reads it.
public enum KernelCrossings {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var calls = 0

    /// Kernel calls so far.
    public static var total: Int { lock.withLock { calls } }

    static func count() { lock.withLock { calls += 1 } }
}

/// What the host answers when Lua asks for something only Swift can do.
protocol LuaHost: AnyObject {
    /// The source of module `name` of the pack at `packDirectory`, or nil when it has no such module.
    func moduleSource(packDirectory: String, name: String) throws -> (chunkname: String, source: String)?
    /// A line printed by a rule.
    func print(_ text: String)
}

/// Holds the host for the C callback; the VM keeps it alive.
private final class HostBox {
    weak var host: LuaHost?

    func handle(_ operation: String, _ argument: String) -> (failed: Bool, reply: String) {
        guard let host else { return (true, "the host is gone") }
        switch operation {
        case "module":
            let parts = argument.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return (true, "malformed module request") }
            do {
                guard let found = try host.moduleSource(packDirectory: String(parts[0]), name: String(parts[1])) else {
                    return (false, "")
                }
                return (false, found.chunkname + "\n" + found.source)
            } catch {
                return (true, "\(error)")
            }
        case "print":
            host.print(argument)
            return (false, "")
        default:
            return (true, "unknown host operation '\(operation)'")
        }
    }
}

/// One Lua state with the Rulebench kernel loaded.
///
/// Every call goes through `rb_call` (a protected call with a traceback
/// handler). Results are read with API functions that cannot raise: type
/// checks, `lua_tolstring` on values that are already strings, `lua_next`.
final class LuaVM {
    private let vm: OpaquePointer
    private let box = HostBox()

    /// The instruction budget per user call (0: no hook at all).
    var instructionBudget: Int64 {
        didSet { rb_set_instruction_budget(vm, instructionBudget) }
    }

    /// The memory cap of the whole state, in bytes.
    var memoryCap: Int {
        didSet { rb_set_memory_cap(vm, memoryCap) }
    }

    /// Bytes the state holds now.
    var memoryUsed: Int { rb_memory_used(vm) }

    /// Instructions the last user call ran (to the hook's granularity).
    var instructionsUsed: Int64 { rb_instructions_used(vm) }

    /// How often watched work ran again under the count hook: whole calls,
    /// and single operations of the kernel's loops. A diagnostic for the
    /// watchdog's cost; the verdicts do not depend on it.
    var reruns: (calls: Int64, operations: Int64) {
        let counts = rb_reruns(vm)
        return (counts.calls, counts.operations)
    }

    /// Tests only: holds the watchdog off every state's watched calls (no
    /// sample, no stop), as a watchdog starved of a core is, so that a test
    /// reaches the Lua thread's own verdict on a call that ran long in wall time.
    static func pauseWatchdog(_ paused: Bool) { rb_watch_pause(paused ? 1 : 0) }

    /// Kernel chunks this process loaded from the compiled form an earlier
    /// load kept for the same name and text, without compiling it again
    /// (kernelcache.c): every chunk of every load of the kernel after the first.
    static var kernelCacheHits: Int64 { rb_kernel_cache_hits() }

    /// How kernel chunks load (luashim.h, `RBKernelLoadWay`).
    enum KernelLoad {
        /// From the compiled form kept for the same name and text (the default).
        case cached
        /// Compiled afresh, as a process's first load is; nothing read or kept.
        case fresh
        /// Parsed from the text in the state itself, as before the cache.
        case parsed
    }

    /// Tests only: how every state loads the kernel's chunks from now on.
    static func loadKernel(_ way: KernelLoad) {
        switch way {
        case .cached: rb_kernel_load(RB_KERNEL_CACHED)
        case .fresh: rb_kernel_load(RB_KERNEL_FRESH)
        case .parsed: rb_kernel_load(RB_KERNEL_PARSED)
        }
    }

    /// A chunk of Lua source, the name its errors and tracebacks show, and
    /// what it is called with: 0 the C helpers, k >= 1 what chunk k - 1
    /// returned (a chunk before it).
    struct Chunk {
        let name: String
        let source: [UInt8]
        let arguments: [Int32]
    }

    /// Creates a state and loads `kernel` into it: each chunk is called with
    /// its arguments and returns a table, and the last one's holds the
    /// functions that `call` reaches.
    init(memoryCap: Int, instructionBudget: Int64, host: LuaHost, kernel: [Chunk]) throws {
        let context = Unmanaged.passUnretained(box).toOpaque()
        guard let vm = rb_open(memoryCap, context, { context, operation, argument, length, out in
            guard let context, let operation, let out else { return 1 }
            let box = Unmanaged<HostBox>.fromOpaque(context).takeUnretainedValue()
            let text = argument.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length).bindMemory(to: UInt8.self), as: UTF8.self) } ?? ""
            let (failed, reply) = box.handle(String(cString: operation), text)
            var bytes = Array(reply.utf8)
            let stored = bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                    rb_buffer_set(out, $0, buffer.count)
                }
            }
            if bytes.isEmpty { bytes = [] }
            return stored == 0 ? 1 : (failed ? 1 : 0)
        }) else {
            throw LuaFailure(cause: .memoryCap, message: "cannot create a Lua state", traceback: "", fields: [:])
        }
        self.vm = vm
        self.memoryCap = memoryCap
        self.instructionBudget = instructionBudget
        box.host = host
        rb_set_instruction_budget(vm, instructionBudget)
        try load(kernel)
    }

    deinit { rb_close(vm) }

    private func load(_ kernel: [Chunk]) throws(LuaFailure) {
        let names = kernel.map { strdup($0.name) }
        defer { names.forEach { free($0) } }
        let status = withArguments(kernel.map(\.source)) { sources, lengths in
            names.map { UnsafePointer($0) }.withUnsafeBufferPointer { chunknames in
                rb_load_kernel(vm, Int32(kernel.count), sources, lengths, chunknames.baseAddress,
                               kernel.map { Int32($0.arguments.count) }, kernel.flatMap(\.arguments))
            }
        }
        if status != RB_OK { throw failure(status) }
    }

    /// Kernel calls made so far (each is one crossing of the bridge, the
    /// aborts C makes on its own not counted): the benchmarks' measure of a
    /// perform's, an undo's and a fuzz run's crossings.
    private(set) var crossings = 0

    /// How a call is accounted (luashim.h, `RBMode`).
    enum Mode {
        /// Runs rule code: under the instruction budget and the memory cap.
        case rules
        /// The kernel's own bookkeeping: no instruction budget, a reserve above the cap.
        case bookkeeping
    }

    /// What the watchdog may do with a call that runs past its allowance
    /// (luashim.h, `RBRestart`), with the name of the function that rolls it back.
    enum Restart: Equatable {
        /// Counted from the start, never run again.
        case never
        /// Watched whole; when stopped, rolled back by `abort` (nil: it writes nothing) and run again counted.
        case call(abort: String?)
        /// A loop of operations, each watched alone; a call stopped between them is rolled back by `abort`.
        case operations(abort: String)
    }

    /// Calls the function `name` of the table the loaded chunks returned, with
    /// string arguments; returns its string results. `mode` says how the call
    /// is accounted and `restart` what the watchdog may do with it.
    @discardableResult
    func call(_ name: String, mode: Mode, restart: Restart, _ arguments: [[UInt8]] = []) throws(LuaFailure) -> [[UInt8]] {
        try call(name, mode: mode, restart: restart, arguments, integers: 0).strings
    }

    /// Calls `name` as `call` does, when its last `integers` results are Lua
    /// integers (history.lua's `where`): they are read as numbers, with no
    /// text made in Lua (an `snprintf` and an interned string each) or parsed
    /// in Swift, and the results before them as strings. `integers` is nil
    /// when those results are not all integers (or there are fewer).
    func call(_ name: String, mode: Mode, restart: Restart, _ arguments: [[UInt8]], integers count: Int) throws(LuaFailure)
        -> (strings: [[UInt8]], integers: [Int]?) {
        crossings += 1
        KernelCrossings.count()
        let policy: RBRestart, abort: String?
        switch restart {
        case .never: (policy, abort) = (RB_RESTART_NEVER, nil)
        case .call(let function): (policy, abort) = (RB_RESTART_CALL, function)
        case .operations(let function): (policy, abort) = (RB_RESTART_OPERATIONS, function)
        }
        let cMode = mode == .rules ? RB_MODE_USER : RB_MODE_ENGINE
        let status = withArguments(arguments) { pointers, lengths in
            if let abort {
                return abort.withCString { rb_call(vm, cMode, name, policy, $0, Int32(arguments.count), pointers, lengths) }
            }
            return rb_call(vm, cMode, name, policy, nil, Int32(arguments.count), pointers, lengths)
        }
        defer { rb_clear(vm) }
        guard status == RB_OK else { throw failure(status) }
        let top = Int(lua_gettop(rb_state(vm)))
        let strings = max(top - 1 - count, 0)   // results start at index 2
        var results: [[UInt8]] = []
        results.reserveCapacity(strings)
        for index in 2..<(2 + strings) { results.append(bytes(at: Int32(index)) ?? []) }
        return (results, count == 0 ? [] : integers(from: 2 + strings, to: top, count: count))
    }

    /// The integers at stack indices `first...last`, nil unless there are
    /// `count` of them.
    private func integers(from first: Int, to last: Int, count: Int) -> [Int]? {
        guard last - first + 1 == count else { return nil }
        let L = rb_state(vm)
        var out: [Int] = []
        out.reserveCapacity(count)
        for index in first...last {
            var isInteger: Int32 = 0
            let n = lua_tointegerx(L, Int32(index), &isInteger)
            guard isInteger != 0, lua_type(L, Int32(index)) == LUA_TNUMBER else { return nil }
            out.append(Int(n))
        }
        return out
    }

    private func withArguments<R>(_ arguments: [[UInt8]],
                                  _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int>?) -> R) -> R {
        var lengths = arguments.map { $0.count }   // not `\.count`: a key path is looked up at run time, per call
        // Each argument gets a stable copy for the duration of the call.
        let buffers = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress {
                    UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count)
                }
            }
            return buffer
        }
        defer { buffers.forEach { $0.deallocate() } }
        var pointers: [UnsafePointer<CChar>?] = buffers.map { UnsafePointer($0) }
        return pointers.withUnsafeMutableBufferPointer { p in
            lengths.withUnsafeMutableBufferPointer { l in body(p.baseAddress, l.baseAddress) }
        }
    }

    /// The bytes of the string at a stack index (nil when it is not a string).
    private func bytes(at index: Int32) -> [UInt8]? {
        let L = rb_state(vm)
        // A number crosses as its text (Lua's own conversion, in place on
        // the results); the integers a call expects are read as numbers
        // (`call(_:_:integers:)`).
        let type = lua_type(L, index)
        guard type == LUA_TSTRING || type == LUA_TNUMBER else { return nil }
        var length = 0
        guard let pointer = lua_tolstring(L, index, &length) else { return nil }
        return Array(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    private func string(at index: Int32) -> String? {
        bytes(at: index).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads the error object left by a failed call.
    private func failure(_ status: RBStatus) -> LuaFailure {
        let L = rb_state(vm)
        let cause: LuaFailure.Cause
        switch status {
        case RB_BUDGET: cause = .instructionBudget
        case RB_MEMORY: cause = .memoryCap
        case RB_HANDLER: cause = .handler
        case RB_WALLCLOCK: cause = .wallClock
        case RB_INTERRUPTED: cause = .interrupted
        default: cause = .error
        }
        let top = lua_gettop(L)
        var fields: [String: String] = [:]
        var text = ""
        if top >= 2 {
            if lua_type(L, top) == LUA_TTABLE, lua_checkstack(L, 4) != 0 {
                lua_pushnil(L)
                while lua_next(L, top) != 0 {
                    if lua_type(L, -2) == LUA_TSTRING, let key = string(at: -2) {
                        if let value = string(at: -1) {
                            fields[key] = value
                        } else if lua_isinteger(L, -1) != 0 {
                            fields[key] = String(lua_tointegerx(L, -1, nil))
                        }
                    }
                    lua_settop(L, -2)
                }
            } else {
                text = string(at: top) ?? "error object is not a string"
            }
        }
        return LuaFailure(cause: cause, text: text, fields: fields)
    }
}
