import Foundation
import XCTest
@testable import Rulebench

/// The fuzzer's replay in a second Lua state (`SeedVariedReplay`): that
/// state's string hash order differs from the main game's, and a pack whose
/// behaviour follows the hash seed (planted: Lua's own `next`, which the
/// sandbox no longer gives rules) is found with a fixed seed in bounded runs.
final class SeedVariedReplayTests: XCTestCase {
    static let seeded = HostileScriptTests.nondeterminismFixtures.appendingPathComponent("seeded").path

    private func fuzzer(planted: Bool, runs: Int) -> Fuzzer {
        var options = Fuzzer.Options(pack: Self.seeded)
        options.seed = 5
        options.runs = runs
        options.depth = 4
        options.search = .uniform
        options.configuration.printHandler = { _ in }
        options.configuration.plantsSeededNext = planted
        return Fuzzer(options: options)
    }

    private let walk = FuzzStep.perform(ActionCall("walk"))

    /// Measured, not assumed: the second state walks string keys in another
    /// order than the main game's, and a program that records that order
    /// gives another state hash there.
    func testTheSecondStateHasAnotherStringHashOrderAndCatchesAPlantedPack() throws {
        let fuzzer = fuzzer(planted: true, runs: 1)
        let program = FuzzProgram(pack: Self.seeded, seed: 1, options: [:], steps: [walk, walk])
        let first = fuzzer.executor.execute(program, checkLegality: false, finalChecks: false)
        XCTAssertNil(first.finding)
        let finding = fuzzer.seedReplay.check(program, first, main: fuzzer.executor.games.main)
        let orders = try XCTUnwrap(fuzzer.seedReplay.orders)
        XCTAssertNotEqual(orders.main, orders.second, "the second state must have another hash seed")
        XCTAssertEqual(try fuzzer.executor.games.main?.state(at: "orders.1"), .string(orders.main),
                       "the planted pack sees the main state's hash order")
        XCTAssertEqual(finding?.property, .deterministic)
        XCTAssertEqual(finding?.stepIndex, 0)
        XCTAssertTrue(finding?.message.contains("in a second Lua state") ?? false, finding?.message ?? "")
    }

    /// The fuzz loop itself finds the planted pack (fixed seed, 40 runs),
    /// and the same pack under the sandbox's ordered next is sound.
    func testTheFuzzerFindsAPackFollowingTheHashSeed() throws {
        let planted = fuzzer(planted: true, runs: 40).run().reports
        let property = try XCTUnwrap(planted.first?.finding.property, "the planted pack was not found")
        XCTAssertTrue([.deterministic, .rewindAndReplay].contains(property), "\(property)")
        let sound = fuzzer(planted: false, runs: 40)
        XCTAssertEqual(sound.run().reports.map(\.finding.message), [])
        let orders = try XCTUnwrap(sound.seedReplay.orders, "run 32 was not played again in a second state")
        XCTAssertNotEqual(orders.main, orders.second)
    }

    /// Only every `interval`-th run is played again: the check costs one
    /// run in 32 (and a new Lua state every 128 runs), nothing in a session
    /// of fewer than 32 runs.
    func testOneRunInThirtyTwoIsPlayedAgain() {
        let checked = (1...320).filter(SeedVariedReplay.isChecked(run:))
        XCTAssertEqual(checked.first, 32)
        XCTAssertEqual(checked.count, 10)
    }
}
