import XCTest
@testable import Rulebench

/// What `rulebench check` (PackChecker) says about a pack's view.
final class ViewCheckTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("viewcheck-\(UUID().uuidString)/race")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("actions"), withIntermediateDirectories: true)
        try """
        return {
          legal = function(game, emit) if game.square < 5 then emit{} end end,
          apply = function(game, a) a.from = game.square; game.square = game.square + 1 end,
          animate = function(anim, game, a, direction)
            if direction == "undo" then return nil end
            return anim.tween{ target = "token:t", property = "square", from = a.from, to = a.from + 1, duration = 0.2 }
          end,
        }
        """.write(to: folder.appendingPathComponent("actions/step.lua"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
    }

    /// A pack whose view is `view` (Lua source of the field's value; line 4 of pack.lua is its first line).
    private func check(view: String) throws -> [String] {
        try """
        return {
          name = "race",
          setup = function(game) game.square = 1 end,
          view = \(view),
        }
        """.write(to: folder.appendingPathComponent("pack.lua"), atomically: true, encoding: .utf8)
        let cwd = FileManager.default.currentDirectoryPath
        return try PackChecker(pack: folder.path).check().map { $0.description.replacingOccurrences(of: cwd + "/", with: "") }
    }

    private func assertOne(_ problems: [String], line: Int, _ text: String, file: StaticString = #filePath, at: UInt = #line) {
        XCTAssertEqual(problems.count, 1, "\(problems)", file: file, line: at)
        XCTAssertTrue(problems.first?.contains("pack.lua:\(line): error: ") == true, "\(problems)", file: file, line: at)
        XCTAssertTrue(problems.first?.contains(text) == true, "\(problems)", file: file, line: at)
    }

    func testAGoodViewIsClean() throws {
        XCTAssertEqual(try check(view: """
        {
            grid = { columns = 5, rows = 1, cell = 40 },
            scene = function(game, add) add{ id = "token:t", col = game.square, row = 1, shape = "circle" } end,
            places = { square = function(game, v) return { col = v, row = 1 } end },
          }
        """), [])
    }

    /// Whole numbers the page uses (grid columns and rows, atlas counts) are
    /// refused beyond ±1000000 at their line, as is a grid reaching past 1000000 pixels.
    func testHugeViewNumbersAreRefusedAtTheirLine() throws {
        let scene = "scene = function(game, add) add{ id = \"a\", x = 1, y = 1 } end"
        let cases: [(declaration: String, line: Int, message: String)] = [
            ("grid = { rows = 1, cell = 8,\n      columns = math.maxinteger },", 6,
             "view.grid.columns must be a whole number from -1000000 to 1000000, not 9223372036854775807"),
            ("grid = { columns = 1000000, rows = 1, cell = 8 },", 5,
             "view.grid reaches 8000000 pixels: its columns and rows of cells must end within 1000000"),
            ("atlases = { pawn = { image = \"pawn.svg\", width = 8, height = 8,\n      count = math.maxinteger } },", 6,
             "atlases.pawn.count must be a whole number from -1000000 to 1000000, not 9223372036854775807"),
        ]
        for (declaration, line, message) in cases {
            let problems = try check(view: "{\n    \(declaration)\n    \(scene),\n  }")
            let errors = problems.filter { $0.contains(": error: ") }
            XCTAssertEqual(errors.count, 1, "\(declaration): \(problems)")
            XCTAssertTrue(errors.first?.contains("pack.lua:\(line): error: ") == true, "\(declaration): \(problems)")
            XCTAssertTrue(errors.first?.contains(message) == true, "\(declaration): \(problems)")
        }
    }

    func testANodeWithoutAPlaceIsAnErrorAtItsLine() throws {
        assertOne(try check(view: """
        function(game, add)
            add{ id = "token:t", shape = "circle" }
          end
        """), line: 5, "the view fails: node token:t: give a place, either col and row (a grid cell) or x and y (pixels)")
    }

    func testAnUnknownShapeIsNamedWithASuggestion() throws {
        assertOne(try check(view: """
        function(game, add)
            add{ id = "a", x = 1, y = 2, shape = "circel" }
          end
        """), line: 5, "unknown shape \"circel\" (did you mean 'circle'?)")
    }

    func testTwoNodesWithOneIdAreAnError() throws {
        assertOne(try check(view: """
        function(game, add)
            add{ id = "a", x = 1, y = 2 }
            add{ id = "a", x = 3, y = 2 }
          end
        """), line: 6, "two nodes have the id \"a\" (the first at")
    }

    func testAViewThatWritesTheStateIsAnError() throws {
        assertOne(try check(view: """
        function(game, add)
            game.square = 3
          end
        """), line: 5, "the view fails")
    }

    func testAnUnknownDeclarationIsAnErrorAtItsLine() throws {
        assertOne(try check(view: """
        {
            scene = function(game, add) end,
            gird = { columns = 5, rows = 1, cell = 40 },
          }
        """), line: 6, "unknown field 'gird' in view (did you mean 'grid'?)")
    }

    func testABadPlaceIsAnErrorAtThePlacesFunction() throws {
        assertOne(try check(view: """
        {
            scene = function(game, add) add{ id = "token:t", x = game.square * 10, y = 0 } end,
            places = {
              square = function(game, v) return v end,
            },
          }
        """), line: 7, "view.places.square must return { col = c, row = r }, { x = x, y = y } or nil")
    }

    /// A background that would make the page fetch something (a url(), an outside
    /// address) is an error at its line: a background is a colour or an image of the pack.
    func testABackgroundThatIsNotAColourOrAPackImageIsAnErrorAtItsLine() throws {
        for bad in ["url(https://example.com/track.png)", "https://example.com/x.png", "/etc/board.png", "../board.png",
                    "linear-gradient(red, blue)", "#12", "rgb(1, 2, url(x))", "art/notes.txt"] {
            assertOne(try check(view: """
            {
                scene = function(game, add) end,
                background = "\(bad)",
              }
            """), line: 6, "view.background must be a colour")
        }
    }

    func testABackgroundColourOrPackImageIsClean() throws {
        for good in ["#f4efe1", "#abc", "#11223344", "white", "rgb(30, 42, 56)", "rgba(30, 42, 56, 0.5)"] {
            XCTAssertEqual(try check(view: "{ scene = function(game, add) end, background = \"\(good)\" }"), [], good)
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("art"), withIntermediateDirectories: true)
        try "<svg xmlns='http://www.w3.org/2000/svg'/>".write(to: folder.appendingPathComponent("art/board.svg"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try check(view: "{ scene = function(game, add) end, background = \"art/board.svg\" }"), [])
        let game = try Game(pack: folder.path)
        let scene = try XCTUnwrap(try game.scene())
        XCTAssertNil(scene.background)
        XCTAssertEqual(scene.backgroundImage, "art/board.svg")
    }

    func testAMissingImageIsAWarning() throws {
        let problems = try check(view: """
        function(game, add)
            add{ id = "a", x = 1, y = 2, image = "art/missing.svg" }
          end
        """)
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertTrue(problems.first?.contains("pack.lua:5: warning: view: node a shows art/missing.svg, which is not in the pack") == true,
                      "\(problems)")
    }

    /// A view runs under the instruction budget like every rule call: one that never ends is stopped at its line.
    func testAViewThatNeverEndsIsStoppedByTheBudget() throws {
        let problems = try check(view: """
        function(game, add)
            while true do end
          end
        """)
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertTrue(problems.first?.contains("pack.lua:5: error: the view: ") == true, "\(problems)")
        XCTAssertTrue(problems.first?.contains("budget") == true, "\(problems)")
    }

    /// Each kind of bad node field is named at the line that adds the node.
    func testBadNodeFieldsAreNamed() throws {
        let cases: [(String, String)] = [
            ("color = \"#12345\"", "'color' must be a colour such as \"#c8a24b\" or \"white\""),
            ("opacity = 2", "'opacity' is 0..1"),
            ("w = -1", "'w' must be at least 0"),
            ("layer = 1.5", "'layer' must be a whole number"),
            // Beyond 2^53 the page reads a big integer, which it cannot compare with its numbers.
            ("layer = math.maxinteger", "'layer' must be a whole number from -1000000 to 1000000, not 9223372036854775807"),
            ("layer = -1000001", "'layer' must be a whole number from -1000000 to 1000000, not -1000001"),
            ("sprite = { atlas = \"pawns\" }", "no atlas 'pawns' in view.atlases (did you mean 'pawn'?)"),
            ("sprite = { atlas = \"pawn\", frame = 3 }", "frame 3 is not in atlas pawn (1..2)"),
            ("sprite = { atlas = \"pawn\", frame = \"jump\" }", "atlas pawn has no frame \"jump\""),
            ("image = \"../secret.png\"", "image must be a path inside the pack folder"),
            ("aliases = { true }", "'aliases' is a list of strings and whole numbers"),
            ("movable = \"yes\"", "'movable' is true (a piece the studio lets you drag to a target) or false, not \"yes\""),
            ("movable = 1", "'movable' is true (a piece the studio lets you drag to a target) or false, not 1"),
            ("colour = \"red\"", "unknown field 'colour' (did you mean 'color'?)"),
        ]
        for (field, message) in cases {
            let problems = try check(view: """
            {
                atlases = { pawn = { image = "pawn.svg", width = 8, height = 8, count = 2, names = { "stand", "walk" } } },
                scene = function(game, add) add{ id = "a", x = 1, y = 1, \(field) } end,
              }
            """)
            let errors = problems.filter { $0.contains(": error: ") }
            XCTAssertEqual(errors.count, 1, "\(field): \(problems)")
            XCTAssertTrue(errors.first?.contains("pack.lua:6: error: the view fails: node a: \(message)") == true, "\(field): \(problems)")
        }
    }
}
