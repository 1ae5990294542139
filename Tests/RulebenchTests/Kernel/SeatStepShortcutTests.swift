import XCTest
@testable import Rulebench

/// A seated step's views take shortcuts (seats.lua: a seat that sees
/// alike with an earlier one shares its view, `twinof`; the secret words
/// of a plan are looked for only until each is found seen, `unseen`); the
/// kernel keeps the full computation behind `seats.seatsreference(true)`; the
/// marks of `secrets` kept while no slot changes, the marks compared instead
/// of walked, the tables no write reached skipped and a plan naming no
/// secret word sent as it is are off there too. Over
/// seeded games of the desert (its seats alike but for a terrascope's look)
/// and of cards (each hand its owner's), every seat's view of every step,
/// the fast way, must be exactly the full computation's, and so must every
/// seat's view of the state after each step and after an undo every seventh.
final class SeatStepShortcutTests: XCTestCase {
    private func game(_ pack: String, players: Int64, seed: Int64, reference: Bool) throws -> Game {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        configuration.strict = true
        let game = try Game(pack: TestPaths.repository("rules/" + pack).path, options: ["players": .int(players)], seed: seed,
                            configuration: configuration)
        try game.kernel.selfTest(file: "reference", source: "local K = ...\nK.seatsreference(\(reference))")
        return game
    }

    /// Whether a plan holds a word the redaction replaced ("?3", "card:?1").
    private func redacted(_ value: StateValue) -> Bool {
        switch value {
        case .string(let s): return s.range(of: #"(^|:)\?[0-9]+$"#, options: .regularExpression) != nil
        case .table(let table): return table.values.contains(where: redacted)
        default: return false
        }
    }

    /// Plays up to `limit` steps of `pack` in two games, the fast and the
    /// full, the same calls in each; returns how many steps were played and
    /// how many seats' plans held a redacted word.
    private func compare(_ pack: String, players: Int64, seed: Int64, limit: Int) throws -> (steps: Int, redactions: Int) {
        let fast = try game(pack, players: players, seed: seed, reference: false)
        let full = try game(pack, players: players, seed: seed, reference: true)
        let seats = try fast.seats()
        var redactions = 0, steps = 0
        for step in 0..<limit {
            let legal = try fast.legalActionsBySeat()
            XCTAssertEqual(legal, try full.legalActionsBySeat(), "\(pack) step \(step)")
            guard let seat = seats.first(where: { !(legal[$0] ?? []).isEmpty }), let calls = legal[seat] else { break }
            let call = calls[(step * 7 + 3) % calls.count]
            let a = try fast.perform(call, as: seat), b = try full.perform(call, as: seat)
            XCTAssertEqual(a.entry.hash, b.entry.hash, "\(pack) step \(step) \(call)")
            XCTAssertEqual(a.barrier, b.barrier, "\(pack) step \(step) \(call)")
            for seen in seats {
                let x = try XCTUnwrap(a.views[seen]), y = try XCTUnwrap(b.views[seen])
                let place = "\(pack) step \(step) \(call) seat \(seen)"
                XCTAssertEqual(x.hash, y.hash, place)
                XCTAssertEqual(x.plan, y.plan, place + ": the plan")
                XCTAssertEqual(x.changes, y.changes, place + ": the changes")
                XCTAssertEqual(x.barrier, y.barrier, place)
                if redacted(y.plan) { redactions += 1 }
            }
            try compareViewsNow(fast, full, seats, "\(pack) after step \(step)")
            if step % 7 == 6 {
                // An undo rolls slots back: what is kept of the marks (seats.lua's `declared`) must be read again.
                try fast.undo()
                try full.undo()
                try compareViewsNow(fast, full, seats, "\(pack) after undoing step \(step)")
            }
            steps += 1
        }
        return (steps, redactions)
    }

    /// Every seat's view of the state now, its hash and the public view's hash, alike in both games.
    private func compareViewsNow(_ fast: Game, _ full: Game, _ seats: [String], _ place: String) throws {
        for seat in seats {
            XCTAssertEqual(try fast.viewHash(as: seat), try full.viewHash(as: seat), place + " seat \(seat)")
            XCTAssertEqual(try fast.view(as: seat), try full.view(as: seat), place + " seat \(seat): the view")
        }
        XCTAssertEqual(try fast.viewHash(as: nil), try full.viewHash(as: nil), place + ": the public view")
    }

    func testEverySeatsViewOfEveryDesertStepIsTheFullComputations() throws {
        // Its seats see alike but for a terrascope's look: nearly every view is shared.
        let played = try compare("desert", players: 2, seed: 7, limit: 60)
        XCTAssertGreaterThanOrEqual(played.steps, 20, "the game ended early: pick another seed")
    }

    func testEverySeatsViewOfEveryCardsStepIsTheFullComputations() throws {
        let played = try compare("cards", players: 3, seed: 3, limit: 40)
        XCTAssertGreaterThanOrEqual(played.steps, 10, "the game ended early: pick another seed")
        XCTAssertGreaterThan(played.redactions, 0, "no plan named a secret word: the shortcut was never taken")
    }
}
