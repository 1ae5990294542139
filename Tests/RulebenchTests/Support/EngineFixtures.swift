import Foundation
@testable import Rulebench

/// Paths of the repository and of the engine's fixture packs.
enum EngineFixtures {
    static let repository = TestPaths.repository
    static let folder = repository.appendingPathComponent("Tests/RulebenchTests/Fixtures/engine")
    static let lab = folder.appendingPathComponent("lab").path
    /// The state hash of a lab game after setup with seed 1 (see UndoTests).
    static let labInitialHash = "407824e198277222"

    /// A lab game; rule prints are swallowed.
    static func labGame(seed: Int64 = 1, budget: Int64 = 10_000_000, memory: Int = 256 << 20,
                        strict: Bool = true) throws -> Game {
        var configuration = Game.Configuration()
        configuration.instructionBudget = budget
        configuration.memoryCap = memory
        configuration.strict = strict
        configuration.printHandler = { _ in }
        return try Game(pack: lab, seed: seed, configuration: configuration)
    }
}

extension Game {
    /// Plays `steps` actions, the first legal one each time (fewer when none
    /// is legal); returns the hash of every position, from the current one.
    func playFirstLegal(steps: Int) throws -> [StateHash] {
        var hashes = [stateHash]
        for _ in 0..<steps {
            guard let call = try legalActions().first else { break }
            hashes.append(try perform(call).hash)
        }
        return hashes
    }
}
