extension RulebenchError {
    /// The names of every invariant an `.invariant` error reports as broken,
    /// in the order they ran (empty for other errors). The kernel runs all of
    /// a pack's invariants and writes one line per broken one,
    /// `invariant 'NAME' failed: why`; the error's `name` is the first.
    public var brokenInvariants: [String] {
        guard case .invariant(let name, let message, _) = self else { return [] }
        var names: [String] = []
        for line in message.split(separator: "\n") {
            guard line.hasPrefix("invariant '"), let end = line.range(of: "' failed: ") else { continue }
            names.append(String(line[line.index(line.startIndex, offsetBy: 11)..<end.lowerBound]))
        }
        return names.isEmpty ? [name] : names
    }
}
