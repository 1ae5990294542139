import XCTest
@testable import Rulebench

/// A fuzz run's crossing (`Kernel.run`): the request written straight to
/// bytes (`Kernel.requestBytes`, `Wire.Writer`) says what the value tree it
/// replaced said, and the reply read as its bytes come (`KernelStream`)
/// gives every field; a malformed or truncated reply is the internal
/// error naming the call and the field, never a crash.
final class KernelRunWireTests: XCTestCase {
    private func s(_ text: String) -> StateValue { .string(text) }
    private func table(_ pairs: [String: StateValue]) -> StateValue {
        .table(Dictionary(uniqueKeysWithValues: pairs.map { (StateKey.string($0.key), $0.value) }))
    }

    private let params: [String: StateValue] = [
        "to": .int(-3), "at": .list([.int(1), .double(2.5)]), "why": .string("é\"}"), "ok": .bool(true),
        "deep": .table([.string("b"): .int(2), .string("a"): .table([.int(1): .string("x")])]),
    ]

    /// Every step kind, every field: the bytes decode to the request as
    /// fuzz.lua reads it (the shape `Kernel.fields` built as a tree).
    func testARequestWritesEveryStepKindAndField() throws {
        let call = ActionCall("move", params)
        var request = Kernel.RunRequest(program: [.perform(call), .attempt(ActionCall("try it")), .undo(2), .redo(1),
                                                  .undoTurn, .undoLastTurn, .perform(ActionCall("other"))],
                                        choiceSeed: UInt64.max - 4, depth: 12, checkLegality: true, recordLegal: true,
                                        rewindAtEnd: true, listLegalAtEnd: true)
        request.anyLegalCall = (index: 6, action: "other")
        request.favoursRareKinds = true
        request.leavesOutKinds = true
        request.resume = 0
        request.reads = [StatePath(keys: [.string("board"), .int(2)])]
        request.share = Discoveries(edges: [4, 9], earlier: [], kinds: [.init(site: -7, plays: 2)])
        let steps: [StateValue] = [
            table(["op": s("do"), "name": s("move"), "params": table(params)]),
            table(["op": s("try"), "name": s("try it"), "params": table([:])]),
            table(["op": s("undo"), "n": .int(2)]), table(["op": s("redo"), "n": .int(1)]),
            table(["op": s("turn")]), table(["op": s("lastturn")]),
            table(["op": s("any"), "name": s("other")]),
        ]
        func expected(resume: Int) -> StateValue {
            table([
                "choices": .int(-5), "depth": .int(12), "checklegal": .bool(true), "recordlegal": .bool(true),
                "final": .bool(true), "listlegal": .bool(true), "rare": .bool(true), "leaveout": .bool(true),
                "resume": .int(Int64(resume)), "reads": .list([.list([s("board"), .int(2)])]),
                "share": table(["edges": .list([.int(4), .int(9)]), "kinds": .list([.int(-7), .int(2)])]),
                "program": .list(Array(steps.dropFirst(resume))),
            ])
        }
        let bytes = Kernel.requestBytes(request)
        XCTAssertEqual(try Wire.decode(bytes), expected(resume: 0))
        // A call's params go in the canonical form, keys in its order: Lua
        // builds the params table exactly as it did from `Wire.encode`.
        XCTAssertTrue(bytes.containsSubsequence(Array("s6:params".utf8) + Wire.encode(table(params))))
        // A resumed run is sent only its steps after the shared ones.
        request.resume = 3
        XCTAssertEqual(try Wire.decode(Kernel.requestBytes(request)), expected(resume: 3))
        // Without the optional fields, none is written.
        XCTAssertEqual(try Wire.decode(Kernel.requestBytes(Kernel.RunRequest(program: nil, depth: 5))), table([
            "choices": .int(0), "depth": .int(5), "checklegal": .bool(false), "recordlegal": .bool(false),
            "final": .bool(false), "listlegal": .bool(false),
        ]))
    }

    /// Swift's reader takes the counted forms as the `{` form (the same
    /// value), and refuses a count past the bytes left.
    func testCountedFormsDecodeAsTheBraceForm() throws {
        var out = Wire.Writer()
        out.table(count: 2)
        out.key("a"); out.list(count: 2); out.int(1); out.string("x")
        out.key("b"); out.value(table(["k": .double(0.5)]))
        XCTAssertEqual(try Wire.decode(out.bytes), table(["a": .list([.int(1), s("x")]), "b": table(["k": .double(0.5)])]))
        for bad in ["a5;i1;", "h99999999999;", "a-1;", "h1;i1;"] {
            XCTAssertThrowsError(try Wire.decode(Array(bad.utf8)), bad)
        }
    }

    /// The writer's numbers and strings are the bytes `String(n)` and the
    /// text's UTF-8 make, at every magnitude and sign, and a table of
    /// params is written as the canonical encoder writes it (one key too).
    func testTheWriterWritesNumbersAndStringsAsTheirText() throws {
        for n: Int64 in [0, 9, 10, -1, -9, -10, 99, 100, 12345, -67890, .max, .min] {
            var out = Wire.Writer()
            out.int(n)
            XCTAssertEqual(out.bytes, Array("i\(n);".utf8), "\(n)")
        }
        for text in ["", "a", "é\"}", String(repeating: "x", count: 300)] {
            var out = Wire.Writer()
            out.string(text)
            XCTAssertEqual(out.bytes, Array("s\(text.utf8.count):\(text)".utf8))
        }
        for one in [["k": StateValue.int(12)], [:], params] {
            var out = Wire.Writer()
            out.value(one)
            XCTAssertEqual(out.bytes, Wire.encode(table(one)))
        }
    }

    private func kernel() throws -> Kernel {
        let pack = try temporaryPack(["step": "return { apply = function(g) g.n = g.n + 1 end }"],
                                     manifest: "return { name = \"wire\", setup = function(g) g.n = 0 end }", prefix: "runwire")
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        return try Game(pack: pack.path, configuration: configuration).kernel
    }

    private var fullReply: StateValue {
        let failure = table(["cause": s("error"), "text": s("boom")])
        return table([
            "outcomes": .list([
                table(["kind": s("performed"), "hash": s("00000000000000a1")]), table(["kind": s("rejected"), "reason": s("no")]),
                table(["kind": s("undone"), "n": .int(2)]), table(["kind": s("redone"), "n": .int(1)]),
                table(["kind": s("failed"), "failure": failure]),
            ]),
            "trace": .list([s("00000000000000a1"), s("00000000000000a2")]),
            "plans": .list([table(["step": .int(1), "id": .int(7), "plan": .int(1)]), table(["step": .int(4), "id": .int(7)])]),
            "steps": .list([
                table(["op": s("do"), "name": s("move"), "params": table(params)]), table(["op": s("try"), "name": s("x")]),
                table(["op": s("undo"), "n": .int(3)]), table(["op": s("redo"), "n": .int(1)]),
                table(["op": s("turn")]), table(["op": s("lastturn")]),
            ]),
            "legal": .list([.list([table(["name": s("move"), "params": table(["to": .int(1)])])]), .list([])]),
            "offered": .list([table(["name": s("move")])]),
            "valid": .bool(false), "fresh": .int(5), "novel": .list([.int(1), .int(3)]),
            "finding": table(["property": s("invariantsHold"), "what": s("after"), "step": .int(2),
                              "call": table(["name": s("move")]), "failure": failure]),
            "rewound": table(["property": s("rewindAndReplay"), "what": s("rewound"), "expected": s("00000000000000a0"),
                              "actual": s("00000000000000a3"), "undos": .int(2)]),
            "found": table(["before": .list([.int(1)]), "edges": .list([.int(2), .int(3)]), "kinds": .list([.int(9), .int(4)])]),
            "history": table(["cursor": .int(1), "count": .int(2), "turn": .int(1), "lastturn": .int(1), "version": .int(6),
                              "initial": s("00000000000000a0"), "current": s("00000000000000a1")]),
        ])
    }

    /// Every field of a reply as fuzz.lua writes it (the canonical form)
    /// reads back into `RunReply`.
    func testAReplyOfEveryFieldReadsBack() throws {
        let kernel = try kernel()
        let reply = try kernel.runReply(Wire.encode(fullReply), raw: [[1, 2, 3]])
        XCTAssertEqual(reply.outcomes.count, 5)
        XCTAssertEqual(Array(reply.outcomes.prefix(4)), [.performed(StateHash(hex: "00000000000000a1")), .rejected("no"), .undone(2), .redone(1)])
        guard case .failed(let text) = reply.outcomes[4] else { return XCTFail("\(reply.outcomes[4])") }
        XCTAssertTrue(text.contains("boom"), text)
        XCTAssertEqual(reply.trace, [StateHash(hex: "00000000000000a1"), StateHash(hex: "00000000000000a2")])
        XCTAssertEqual(reply.plans.map(\.stepIndex), [0, 3])
        XCTAssertEqual(reply.plans.map(\.id), [7, 7])
        XCTAssertEqual(reply.plans.map(\.plan), [[1, 2, 3], nil])
        XCTAssertEqual(reply.steps, [.perform(ActionCall("move", params)), .attempt(ActionCall("x")), .undo(3), .redo(1), .undoTurn, .undoLastTurn])
        XCTAssertEqual(reply.legal, [[ActionCall("move", ["to": .int(1)])], []])
        XCTAssertEqual(reply.offered, [ActionCall("move")])
        XCTAssertFalse(reply.valid)
        XCTAssertEqual(reply.newEdges, 5)
        XCTAssertEqual(reply.novelSteps, [0, 2])
        XCTAssertEqual(reply.finding?.property, .invariantsHold)
        XCTAssertEqual(reply.finding?.stepIndex, 1)
        XCTAssertEqual(reply.finding?.during, .after)
        XCTAssertEqual(reply.finding?.call, ActionCall("move"))
        XCTAssertEqual(reply.rewound?.property, .rewindAndReplay)
        XCTAssertEqual(reply.rewound?.rewindUndos, 2)
        XCTAssertEqual(reply.found, Discoveries(edges: [2, 3], earlier: [1], kinds: [.init(site: 9, plays: 4)]))
        XCTAssertEqual(reply.history.initialHash, StateHash(hex: "00000000000000a0"))
        XCTAssertEqual(reply.history.cursor, 1)
        XCTAssertEqual(reply.history.count, 2)
        XCTAssertEqual(reply.history.view.position.version, 6)
        XCTAssertEqual(reply.history.view.current, StateHash(hex: "00000000000000a1"))
        XCTAssertEqual(reply.history.view.keptCount, 0, "a reply carries no entries")
        // The same reply with its lists in the counted form reads the same.
        var counted = Wire.Writer()
        counted.table(count: 1)
        counted.key("trace"); counted.list(count: 1); counted.string("00000000000000b1")
        var minimal = fullReply
        if case .table(var fields) = minimal {
            fields[.string("trace")] = nil
            minimal = .table(fields)
        }
        var joined = Array(Wire.encode(minimal).dropLast())
        joined += Array("s5:trace".utf8) + Array("a1;s16:00000000000000b1".utf8) + [UInt8(ascii: "}")]
        XCTAssertEqual(try kernel.runReply(joined, raw: [[1]]).trace, [StateHash(hex: "00000000000000b1")])
    }

    /// An offered call's params are read straight into the call's params
    /// (`KernelStream.params`), in each form a table may take, as
    /// `ActionCall.params(from:)` reads the value: a list's keys as their
    /// digits, a nested value whole, anything but a table as no params.
    func testOfferedParamsReadInEveryFormAsTheirValueDoes() throws {
        let kernel = try kernel()
        let forms: [(bytes: String, value: StateValue)] = [
            ("h2;s2:toi1;s3:whys2:x}", table(["to": .int(1), "why": s("x}")])),
            ("a2;i5;{s1:ki1;}", .list([.int(5), table(["k": .int(1)])])),
            ("{s4:deep{i1;a1;t}s1:nn}", table(["deep": .table([.int(1): .list([.bool(true)])])])),
            ("{}", table([:])),
            ("s5:three", s("three")),
            ("i7;", .int(7)),
        ]
        guard case .table(var fields) = fullReply else { return XCTFail() }
        fields[.string("offered")] = nil
        let rest = Wire.encode(.table(fields)).dropLast()
        for form in forms {
            let call = "{s4:names4:moves6:params\(form.bytes)}"
            let reply = Array(rest) + Array("s7:offereda1;\(call)}".utf8)
            let offered = try kernel.runReply(reply, raw: [[1]]).offered
            XCTAssertEqual(offered, [ActionCall("move", ActionCall.params(from: form.value))], form.bytes)
        }
    }

    /// A reply cut anywhere, or with a field of another shape, is the
    /// internal error naming `fuzz` (and the field, where there is one).
    func testAMalformedOrTruncatedReplyIsAnErrorNeverACrash() throws {
        let kernel = try kernel()
        let bytes = Wire.encode(fullReply)
        for cut in 0..<bytes.count {
            XCTAssertThrowsError(try kernel.runReply(Array(bytes.prefix(cut)), raw: [[1]]), "cut at \(cut)") { error in
                XCTAssertTrue("\(error)".hasPrefix("internal error in the engine: the reply of 'fuzz'"), "cut at \(cut): \(error)")
            }
        }
        XCTAssertThrowsError(try kernel.runReply(bytes + [UInt8(ascii: "t")], raw: [[1]])) { error in
            XCTAssertTrue("\(error)".contains("bytes after its value"), "\(error)")
        }
        func broken(_ field: String, _ value: StateValue?, _ message: String, raw: [[UInt8]] = [[1]]) {
            guard case .table(var fields) = fullReply else { return XCTFail() }
            fields[.string(field)] = value
            XCTAssertThrowsError(try kernel.runReply(Wire.encode(.table(fields)), raw: raw), field) { error in
                XCTAssertTrue("\(error)".contains(message), "\(field): \(error)")
            }
        }
        broken("trace", .list([s("00000000000000a1"), .int(3)]), "field 'trace.2' 3, not a string")
        broken("trace", .table([.int(1): s("a"), .int(3): s("b")]), "field 'trace' a key 3 where item 2 of a list was expected")
        broken("trace", s("x"), "field 'trace' \"x\", not a table")
        broken("trace", nil, "field 'trace' nothing")
        broken("outcomes", .list([table(["kind": s("performedTwice")])]), "field 'outcomes.1.kind' 'performedTwice', which this side does not know")
        broken("outcomes", .list([table(["kind": s("performed")])]), "field 'outcomes.1.hash' nothing")
        broken("plans", .list([table(["step": .int(1), "id": .int(2), "plan": .int(2)])]), "field 'plans.1.plan' 2, not a result's position")
        broken("steps", .list([table(["op": s("any"), "name": s("x")])]), "field 'steps.1.op' 'any', which only a request carries")
        broken("valid", .int(1), "field 'valid' 1, not a boolean")
        broken("history", table(["cursor": .int(1)]), "field 'history.initial' nothing")
        // A count past the bytes left, in place of the trace's list.
        var counted = Array(Wire.encode(fullReply))
        let trace = Array("s5:trace".utf8)
        if let at = counted.firstRange(of: trace)?.upperBound {
            var end = at
            var depth = 0
            repeat {
                if counted[end] == UInt8(ascii: "{") { depth += 1 }
                if counted[end] == UInt8(ascii: "}") { depth -= 1 }
                end += 1
            } while depth > 0
            counted.replaceSubrange(at..<end, with: Array("a9999999;".utf8))
        }
        XCTAssertThrowsError(try kernel.runReply(counted, raw: [[1]])) { error in
            XCTAssertTrue("\(error)".contains("field 'trace' bytes that do not decode (malformed count"), "\(error)")
        }
    }
}

private extension Array where Element == UInt8 {
    func containsSubsequence(_ part: [UInt8]) -> Bool { firstRange(of: part) != nil }
}
