import Rulebench

/// Why a match could not be created or resumed.
public enum MatchError: Error, Sendable, CustomStringConvertible {
    /// The setup is not one a match can have (its seats).
    case badSetup(String)
    /// The engine refused the pack or its options.
    case engine(RulebenchError)
    /// The store failed.
    case store(MatchStoreError)
    /// The match's log no longer replays: it is not resumed.
    case replay(MatchReplayRefusal)
    /// The match is finished: it is kept, never resumed.
    case finished(MatchID, result: String)

    public var description: String {
        switch self {
        case .badSetup(let problem): return "cannot create the match: \(problem)"
        case .engine(let error): return "cannot create the match: \(error)"
        case .store(let error): return error.description
        case .replay(let refusal): return refusal.description
        case .finished(let id, let result): return "\(id) is finished (\(result)): it is kept, not resumed"
        }
    }
}
