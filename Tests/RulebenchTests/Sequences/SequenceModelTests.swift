import XCTest
@testable import Rulebench

/// Sequences as data (docs/sequences.md): a file read into its steps and
/// events with their places, the one template form, and a sequence resolved
/// for a state (`Game.sequence`), started by a plan, the opening or a goal.
final class SequenceModelTests: XCTestCase {
    private let story = TestPaths.fixtures.appendingPathComponent("sequences/story").path

    func testAFileReadsIntoStepsEventsAndChoicesWithTheirLines() throws {
        let text = """
            starts: { goal: won }
            steps:
              - left:
                  text: "Water: {players.p1.water}"
                  image: art/a.svg
                  position: far
                  animation: bounce
                right:
                  text: Hi
              - center:
                  text: Pick
                  choices:
                    - { label: Go, action: move, params: { to: b2, player: "{turn.player}" } }
            """
        let sequence = try SequenceReader(reader: YAMLReader(file: "s.yaml"), name: "s").sequence(from: text)
        XCTAssertEqual(sequence.trigger, .goal("won"))
        XCTAssertEqual(sequence.steps.count, 2)
        let first = sequence.steps[0].events
        XCTAssertEqual(first.map(\.side), [.left, .right])
        XCTAssertEqual(first[0].position, .far)
        XCTAssertEqual(first[0].animation, .bounce)
        XCTAssertEqual(first[0].image, "art/a.svg")
        XCTAssertEqual(first[0].textLocation.line, 4)
        XCTAssertEqual(first[1].position, .near)
        XCTAssertEqual(first[1].animation, .fade)
        let choice = try XCTUnwrap(sequence.steps[1].events.first?.choices.first)
        XCTAssertEqual(choice.call, ActionCall("move", ["to": .string("b2"), "player": .string("{turn.player}")]))
        XCTAssertEqual(choice.location.line, 13)
    }

    func testAnUnknownWordIsAProblemAtItsLine() {
        let text = "steps:\n  - left:\n      text: x\n      animation: spinn\n"
        XCTAssertThrowsError(try SequenceReader(reader: YAMLReader(file: "s.yaml"), name: "s").sequence(from: text)) { error in
            let problem = (error as? RulebenchError)?.inputProblem
            XCTAssertEqual(problem?.location?.line, 4)
            XCTAssertTrue(problem?.message.contains("unknown animation 'spinn'") == true, "\(error)")
        }
    }

    func testTheTemplateFillsPathsAndMarksTheMissing() {
        let state = StateValue.table([.string("players"): .table([.string("p1"): .table([.string("water"): .int(3)])]),
                                      .string("order"): .list([.string("p1")])])
        let filled = SequenceText("{players.p1.water} left for {order.1}, {nobody.here} {not a path}", state: state)
        XCTAssertEqual(filled.text, "3 left for p1, {nobody.here?} {not a path}")
        XCTAssertEqual(filled.missing, ["nobody.here"])
    }

    func testAPlanTheOpeningAndAGoalStartSequencesResolvedForTheState() throws {
        let game = try Game(pack: story)
        XCTAssertEqual(game.openingSequences(), [])
        var goals = game.triggeringGoalsHeld()
        let first = try game.perform("draw")
        XCTAssertEqual(game.sequences(startedBy: first.animation, goalsHeldBefore: goals), [])
        goals = game.triggeringGoalsHeld()
        let last = try game.perform("draw")
        XCTAssertEqual(game.sequences(startedBy: last.animation, goalsHeldBefore: goals), ["dry", "bucket"])
        let undone = try game.undo()
        XCTAssertEqual(game.sequences(startedBy: undone.animation, goalsHeldBefore: []), [], "an undo starts nothing")
        _ = try game.redo()

        let played = try game.sequence("dry")
        XCTAssertEqual(played.steps.map { $0.events.map(\.text) }, [["The well is dry: 0 left.", "The bucket holds 1."], ["Pray for rain?"]])
        XCTAssertEqual(played.steps[0].events[0].image, "art/well.svg")
        XCTAssertTrue(played.steps[0].events[0].imageFound)
        XCTAssertEqual(played.steps[0].seconds, SequenceAnimation.shake.seconds)
        XCTAssertEqual(played.steps[1].events[0].choices.map(\.call), [ActionCall("fill")])
        XCTAssertEqual(played.missing, [])
        XCTAssertEqual(try game.state(at: "water"), .int(0), "resolving changes nothing")
    }

    func testPlayPrintsTheSequencesAStepStartsAndTheOnesAskedFor() throws {
        final class Text { var all = "" }
        let text = Text()
        let session = PlaySession(game: try Game(pack: story)) { text.all += $0 }
        session.start()
        session.handle("draw")
        XCTAssertFalse(text.all.contains("sequence dry"), text.all)
        session.handle("draw")
        XCTAssertTrue(text.all.contains("sequence dry\nstep 1\n  left near shake art/well.svg: The well is dry: 0 left.\n"), text.all)
        XCTAssertTrue(text.all.contains("sequence bucket\nstep 1\n  right near fade: A bucket of size 1.\n"), "the goal `empty` starts it: \(text.all)")
        session.handle("spill")
        session.handle("sequence bucket")
        XCTAssertTrue(text.all.contains("right near fade: A bucket of size {bucket.size?}.\n  (") && text.all.contains("reads {bucket.size}"), text.all)
    }
}
