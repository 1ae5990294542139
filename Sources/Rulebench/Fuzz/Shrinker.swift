import Foundation

/// Reduces a failing program to a small one that fails the same way.
///
/// Moves, in order, repeated until none helps: delete chunks of steps
/// (halves, quarters, ... single steps), then replace a performed action by
/// a simpler legal one at the same point. Every candidate is run from
/// scratch; one whose `perform` steps are not all legal is discarded, so the
/// result is a program a player could have played.
struct Shrinker {
    let executor: FuzzExecutor
    /// Stop after this many candidate runs.
    var budget = 3000

    private(set) var attempts = 0

    /// The shrunk program and its finding.
    mutating func shrink(_ program: FuzzProgram, _ finding: FuzzFinding) -> (FuzzProgram, FuzzFinding) {
        var best = program
        var bestFinding = finding
        if finding.stepIndex >= 0 && finding.stepIndex + 1 < best.steps.count {
            best.steps = Array(best.steps[...finding.stepIndex])
        }
        var improved = true
        while improved && attempts < budget {
            improved = false
            if deleteChunks(&best, &bestFinding) { improved = true }
            if simplifyActions(&best, &bestFinding) { improved = true }
        }
        return (best, bestFinding)
    }

    /// Runs a candidate; returns its finding when it fails the same way.
    private mutating func failsTheSame(_ candidate: FuzzProgram, as finding: FuzzFinding) -> FuzzFinding? {
        attempts += 1
        let result = executor.execute(candidate, checkLegality: true, finalChecks: finding.property == .rewindAndReplay || finding.property == .saveAndLoad)
        guard result.valid, let found = result.finding, found.matches(finding) else { return nil }
        return found
    }

    private mutating func deleteChunks(_ best: inout FuzzProgram, _ finding: inout FuzzFinding) -> Bool {
        var improved = false
        var size = max(1, best.steps.count / 2)
        while size >= 1 && attempts < budget {
            var start = 0
            while start < best.steps.count && attempts < budget {
                var candidate = best
                candidate.steps.removeSubrange(start..<min(start + size, candidate.steps.count))
                if !candidate.steps.isEmpty || finding.stepIndex < 0, let found = failsTheSame(trimmed(candidate, found: nil), as: finding) {
                    best = trimmed(candidate, found: found)
                    finding = found
                    improved = true
                } else {
                    start += size
                }
            }
            if size == 1 { break }
            size /= 2
        }
        return improved
    }

    /// Drops the steps after the failing one.
    private func trimmed(_ program: FuzzProgram, found: FuzzFinding?) -> FuzzProgram {
        guard let found, found.stepIndex >= 0, found.stepIndex + 1 < program.steps.count else { return program }
        var copy = program
        copy.steps = Array(copy.steps[...found.stepIndex])
        return copy
    }

    /// Tries simpler steps (smaller undo/redo counts, an attempt made as a
    /// plain perform), and for each performed action the simpler legal
    /// alternatives at its point.
    private mutating func simplifyActions(_ best: inout FuzzProgram, _ finding: inout FuzzFinding) -> Bool {
        let recorded = executor.execute(best, checkLegality: false, recordLegal: true, finalChecks: false)
        var improved = false
        for index in best.steps.indices where attempts < budget && index < best.steps.count {
            if let fewer = Shrinker.simpler(best.steps[index]) {
                var candidate = best
                candidate.steps[index] = fewer
                if let found = failsTheSame(candidate, as: finding) {
                    best = trimmed(candidate, found: found)
                    finding = found
                    improved = true
                    continue
                }
            }
            guard case .perform(let current) = best.steps[index], index < recorded.legal.count else { continue }
            let simpler = recorded.legal[index]
                .filter { Shrinker.complexity($0) < Shrinker.complexity(current) }
                .sorted { Shrinker.complexity($0) < Shrinker.complexity($1) }
            for alternative in simpler.prefix(6) where attempts < budget {
                var candidate = best
                candidate.steps[index] = .perform(alternative)
                if let found = failsTheSame(candidate, as: finding) {
                    best = trimmed(candidate, found: found)
                    finding = found
                    improved = true
                    break
                }
            }
        }
        return improved
    }

    /// A simpler step in its place: an undo or redo of one step fewer, or an
    /// attempt made as a perform (kept only if the call is legal there);
    /// nil when there is nothing to simplify.
    static func simpler(_ step: FuzzStep) -> FuzzStep? {
        switch step {
        case .undo(let n) where n > 1: return .undo(n - 1)
        case .redo(let n) where n > 1: return .redo(n - 1)
        case .attempt(let call): return .perform(call)
        default: return nil
        }
    }

    /// A total order on calls: fewer params, shorter text, then alphabetical.
    static func complexity(_ call: ActionCall) -> String {
        let text = call.description
        return String(format: "%03d%06d", call.params.count, text.count) + text
    }
}
