/// "Did you mean" hints for misspelled names.
///
/// One rule everywhere a name can be misspelled (scenario keys, options,
/// goals, params in action files): the candidate nearest by edit distance,
/// case ignored and a swap of two neighbours counted as one edit, when it is
/// at most a third of the candidate's length away (1 to 3 edits) or starts
/// with what was written. The kernel's `core.suggest` (`Kernel/core.lua`)
/// applies the same rule to the names Lua checks.
enum Suggestion {
    /// The closest of `candidates` to `word`, when it is close enough to be a likely typo.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let lowered = word.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = max(1, min(3, best.name.count / 3))
        let isPrefix = lowered.count >= 2 && best.name.lowercased().hasPrefix(lowered)
        return best.distance <= allowed || isPrefix ? best.name : nil
    }

    /// " Did you mean 'x'?" or "" — ready to append to a message.
    static func hint(for word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The Levenshtein distance (insertions, deletions, substitutions), with
    /// a swap of two neighbouring characters counted as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
