import ArgumentParser
import Foundation
import Rulebench
import Synchronization

/// Set by SIGINT; long commands poll it and stop cleanly (exit 130).
let interruptRequested = Atomic<Bool>(false)

/// Routes SIGINT to `interruptRequested` instead of killing the process.
func catchInterrupts() {
    signal(SIGINT) { _ in interruptRequested.store(true, ordering: .relaxed) }
}

/// True once SIGINT arrived.
var wasInterrupted: Bool { interruptRequested.load(ordering: .relaxed) }

/// Whether standard error is a terminal (progress lines redraw in place only there).
var stderrIsTerminal: Bool { isatty(2) != 0 }

/// Parses `k=v` pairs (setup options, action params) into state values.
func parsePairs(_ pairs: [String], what: String) throws -> [String: StateValue] {
    var values: [String: StateValue] = [:]
    for pair in pairs {
        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
            throw ValidationError("\(what) expects key=value, got '\(pair)'")
        }
        values[String(pair[..<equals])] = StateValue(argument: String(pair[pair.index(after: equals)...]))
    }
    return values
}
