import Rulebench

extension Match {
    /// Resumes a live match from its store: its log replayed from setup
    /// through the engine and the seat policy, every state hash verified.
    /// A log that no longer replays is refused (`.replay`, naming the first
    /// step that differs), never resumed.
    public static func resume(_ id: MatchID, store: any MatchStore, engine: MatchEngine) throws(MatchError) -> Match {
        let log: MatchLog
        do { log = try store.log(of: id) } catch { throw .store(error) }
        if case .finished(let result) = log.status { throw .finished(id, result: result) }
        let place = Place(store: store.location, match: id)
        let game: Game
        do {
            game = try engine.game(log.setup)
        } catch {
            throw .replay(place.refusal(0, "setup", expected: "\(log.setup.packName) \(log.setup.packVersion) set up",
                                        actual: "\(error)"))
        }
        let barriers: [Int: String]
        do {
            barriers = try replay(log.records, of: log.setup, into: game, seats: engine.seats, place: place)
        } catch {
            throw .replay(error)
        }
        return Match(id: id, setup: log.setup, records: log.records, barriers: barriers, game: game, store: store, engine: engine)
    }

    /// Plays the log again from setup in this match's own game (after a
    /// step the game could not take back by itself).
    func replayLog() throws(MatchReplayRefusal) {
        let place = Place(store: store.location, match: id)
        do {
            try game.restart(seed: setup.seed, options: setup.options)
        } catch {
            throw place.refusal(0, "setup", expected: "\(setup.packName) \(setup.packVersion) set up", actual: "\(error)")
        }
        barriers = try Match.replay(records, of: setup, into: game, seats: engine.seats, place: place)
    }

    /// Replays `records` in `game`, fresh from `setup`'s setup: the pack
    /// must be the one the match began with, each call performed for its
    /// seat and each takeback undone (strictly), each leaving the hash the
    /// record holds. The first step that does not is thrown. Returns the
    /// undo barriers among the calls left in effect, by version.
    @discardableResult
    static func replay(_ records: [MatchRecord], of setup: MatchSetup, into game: Game, seats: any SeatPolicy,
                       place: Place) throws(MatchReplayRefusal) -> [Int: String] {
        guard game.pack.name == setup.packName, game.pack.version == setup.packVersion else {
            throw place.refusal(0, "setup", expected: "pack \(setup.packName) \(setup.packVersion)",
                                actual: "pack \(game.pack.name) \(game.pack.version)")
        }
        guard game.stateHash == setup.initialHash else {
            throw place.refusal(0, "setup", expected: "state hash \(setup.initialHash) after setup", actual: "state hash \(game.stateHash)")
        }
        var inEffect: [Int] = [], barriers: [Int: String] = [:]
        for record in records {
            let hash: StateHash
            do {
                switch record.step {
                case .call(let call):
                    // Hashes and barriers are checked; no view is built, none is sent.
                    let step = try seats.perform(call, as: record.seat, in: game, views: false)
                    hash = step.entry.hash
                    inEffect.append(record.version)
                    barriers[record.version] = seats.barrier(step)
                case .takeback(let version):
                    guard inEffect.last == version else {
                        throw place.refusal(record.version, record.summary, expected: "version \(version) the last call in effect",
                                            actual: "version \(inEffect.last.map(String.init) ?? "none") in effect")
                    }
                    hash = try game.undo().hash
                    inEffect.removeLast()
                    barriers[version] = nil
                }
            } catch let error as MatchReplayRefusal {
                throw error
            } catch {
                throw place.refusal(record.version, record.summary, expected: "state hash \(record.hash)", actual: "\(error)")
            }
            guard hash == record.hash else {
                throw place.refusal(record.version, record.summary, expected: "state hash \(record.hash)", actual: "state hash \(hash)")
            }
        }
        return barriers
    }

    /// Where a replay runs, for its refusals.
    struct Place {
        let store: String
        let match: MatchID

        func refusal(_ step: Int, _ action: String, expected: String, actual: String) -> MatchReplayRefusal {
            MatchReplayRefusal(store: store, match: match, step: step, action: action, expected: expected, actual: actual)
        }
    }
}
