import Foundation
import XCTest
@testable import Rulebench

/// The kernel's chunks are compiled from their text once per process, and
/// every game's state loads the compiled form (kernelcache.c): a game made
/// after the first does not parse the kernel again, and nothing reads
/// otherwise: the same hashes for the same moves as from the text, the same
/// heap as the process's first game, and the same errors and tracebacks,
/// naming the kernel's files, lines and locals.
final class KernelLoadCacheTests: XCTestCase {
    override func tearDown() {
        LuaVM.loadKernel(.cached)
        super.tearDown()
    }

    /// What `make` made, and the loads the cache served while it ran.
    private static func hits<T>(_ make: () throws -> T) rethrows -> (T, Int64) {
        let before = LuaVM.kernelCacheHits
        let made = try make()
        return (made, LuaVM.kernelCacheHits - before)
    }

    private func game(loading way: LuaVM.KernelLoad) throws -> (Game, Int64) {
        LuaVM.loadKernel(way)
        defer { LuaVM.loadKernel(.cached) }
        return try Self.hits { try EngineFixtures.labGame() }
    }

    func testAGameLoadsTheKernelFromTheCacheAndPlaysAsTheFirstAndAParsedOne() throws {
        let (first, compiling) = try game(loading: .fresh)        // as a process's first game
        _ = try game(loading: .cached)                             // keeps the chunks, if no test did
        let (cached, served) = try game(loading: .cached)
        let (parsed, parsing) = try game(loading: .parsed)         // as before the cache
        XCTAssertEqual([compiling, parsing], [0, 0])
        XCTAssertEqual(served, Int64(KernelSource.chunks.count), "every chunk of a later game from the cache")
        XCTAssertEqual(cached.memoryUsed, first.memoryUsed, "a later game's heap is the first's")

        let line = try parsed.playFirstLegal(steps: 20)
        XCTAssertGreaterThan(Set(line).count, 5, "the line moves")
        XCTAssertEqual(try cached.playFirstLegal(steps: 20), line)
        XCTAssertEqual(try first.playFirstLegal(steps: 20), line)
        XCTAssertEqual(cached.memoryUsed, first.memoryUsed, "the same heap after the same moves")
    }

    /// What a kernel test that fails inside the kernel reports: message and
    /// traceback, each naming kernel files and lines.
    private func kernelFailure() throws -> String {
        var configuration = Game.Configuration()
        configuration.printHandler = { _ in }
        let kernel = try Kernel(configuration: configuration, files: PackFiles())
        do {
            try kernel.selfTest(file: "Tests/KernelTests/cache.lua", source: "local K = ...\nK.suggest(5, {})")
        } catch .script(let failure) {
            return failure.message + "\n" + failure.traceback
        }
        XCTFail("the kernel test passed")
        return ""
    }

    func testAKernelErrorReadsTheSameFromACachedLoad() throws {
        LuaVM.loadKernel(.parsed)
        let parsed = try kernelFailure()
        LuaVM.loadKernel(.cached)
        _ = try kernelFailure()
        let (cached, served) = try Self.hits { try kernelFailure() }
        XCTAssertEqual(served, Int64(KernelSource.chunks.count))
        XCTAssertEqual(cached, parsed)
        // The message names the kernel's line and the local's name, and the
        // traceback the kernel's frames with their lines: what a stripped
        // dump would lose ("?" for lines, no local names).
        XCTAssertTrue(parsed.hasPrefix(
            "internal error in the engine: rulebench/Kernel/core.lua:243: attempt to index a number value (local 'word')"), parsed)
        XCTAssertTrue(parsed.contains("\n\trulebench/Kernel/core.lua:243: in "), parsed)
        XCTAssertTrue(parsed.contains("\n\trulebench/Kernel/devaids.lua:"), parsed)
        XCTAssertTrue(parsed.contains("\n\tTests/KernelTests/cache.lua:2: in "), parsed)
    }

    /// A state loading `source` as a one-chunk kernel, and the loads the cache served.
    private static func state(_ source: String) throws -> (LuaVM, Int64) {
        let chunk = LuaVM.Chunk(name: "=test/kernelcache.lua", source: Array(source.utf8), arguments: [0])
        return try Self.hits { try LuaVM(memoryCap: 64 << 20, instructionBudget: 0, host: PackFiles(), kernel: [chunk]) }
    }

    /// A chunk is served from the cache only for the name and the very bytes
    /// it was compiled from: the same name with other text of the same
    /// length is compiled from that text. Its first load and a later one
    /// leave the same heap.
    func testAChunkOfOtherTextIsNotServedFromTheCache() throws {
        func answer(_ word: String) throws -> (String, Int64, Int) {
            let (vm, served) = try Self.state("local C = ...\nreturn { answer = function() return '\(word)' end }")
            let memory = vm.memoryUsed
            let reply = try vm.call("answer", mode: .bookkeeping, restart: .never)
            return (String(decoding: reply.first ?? [], as: UTF8.self), served, memory)
        }
        let word = "w\(UInt32.random(in: 100_000...999_999))"   // a text no earlier test compiled
        let (first, compiled, memory) = try answer(word)
        let (again, served, memoryAgain) = try answer(word)
        XCTAssertEqual([first, again], [word, word])
        XCTAssertEqual([compiled, served], [0, 1], "the same text again: from the cache")
        XCTAssertEqual(memoryAgain, memory)
        let other = String(word.reversed())
        XCTAssertEqual(try answer(other).0, other, "the same name and length, other bytes")
        XCTAssertEqual(try answer(word).0, word)
    }

    /// States made at once on several threads (as `--jobs` workers make
    /// games) each load the chunk right, whether they compile it together or
    /// find it kept; the kernel's chunks too. ThreadSanitizer runs this test.
    func testStatesLoadingAtOnceOnThreadsEachLoadTheirChunk() throws {
        let word = "t\(UInt32.random(in: 100_000...999_999))"   // a text no earlier test compiled
        let source = "local C = ...\nreturn { answer = function() return '\(word)' end }"
        let lock = NSLock()
        nonisolated(unsafe) var answers: [String] = []
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let answer: String
            do {
                let (vm, _) = try Self.state(source)
                let kernel = index % 2 == 0 ? try Kernel(configuration: Game.Configuration(), files: PackFiles()) : nil
                answer = String(decoding: try vm.call("answer", mode: .bookkeeping, restart: .never).first ?? [], as: UTF8.self)
                    + (kernel == nil ? "" : "+kernel")
            } catch {
                answer = "\(error)"
            }
            lock.withLock { answers.append(answer) }
        }
        XCTAssertEqual(answers.sorted(), Array(repeating: word, count: 4) + Array(repeating: word + "+kernel", count: 4))
        XCTAssertEqual(try Self.state(source).1, 1, "kept once, found after")
    }

    /// A chunk that does not compile reports Lua's own message, whichever way it loads.
    func testASyntaxErrorReadsAsLuaWritesIt() throws {
        func failure(_ way: LuaVM.KernelLoad) -> String {
            LuaVM.loadKernel(way)
            defer { LuaVM.loadKernel(.cached) }
            do {
                _ = try Self.state("local C = ...\nreturn { answer = function() return 'x' end ")
                return "loaded"
            } catch { return (error as? LuaFailure)?.message ?? "\(error)" }
        }
        let parsed = failure(.parsed)
        XCTAssertEqual(parsed, "test/kernelcache.lua:2: '}' expected near <eof>")
        XCTAssertEqual(failure(.cached), parsed)
        XCTAssertEqual(failure(.cached), parsed)
    }
}
