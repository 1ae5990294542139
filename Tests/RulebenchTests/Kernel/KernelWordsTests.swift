import Foundation
import XCTest
@testable import Rulebench

/// Every protocol word is in the one table: each enum of raw words declared
/// in the Kernel layer's Swift (`Sources/Rulebench/Kernel/*.swift`) is a group
/// of `KernelWords.groups`, which the kernel's test (Tests/KernelTests/
/// protocol.lua) compares with `Kernel/protocol.lua`'s `K.WORDS` group by
/// group. A new enum of words left out of the table fails here.
final class KernelWordsTests: XCTestCase {
    /// Enums of raw strings in the Kernel layer that are not words inside
    /// requests and replies, and why.
    private static let notWords: Set<String> = [
        "KernelEntry",                  // the entry points' names: KernelEntry.table, checked by the same test
        "KernelEntry.Mode",             // how Swift accounts a call, told to C, never to Lua
        "BudgetFailure.Resource",       // Swift's own names of what stopped a call (C tells it by status)
        "ActionAnimation.Direction",    // which way Swift built a plan; Lua gives packs "do"/"undo" itself
    ]

    /// Groups whose Swift type lies above the Kernel layer (the allowlist's
    /// Kernel -> Fuzz: FuzzFinding): the property's one definition.
    private static let declaredAbove: Set<String> = ["FuzzFinding.Property"]

    func testEveryWordEnumOfTheKernelLayerIsAGroupOfTheTable() throws {
        let declared = try Self.wordEnums(in: TestPaths.repository("Sources/Rulebench/Kernel"))
        XCTAssertFalse(declared.isEmpty, "the scan finds the word enums")
        let listed = Set(KernelWords.groups.map { String(reflecting: $0.type).replacingOccurrences(of: "Rulebench.", with: "") })
        for name in declared.subtracting(Self.notWords) {
            XCTAssertTrue(listed.contains(name), "\(name) declares words the kernel's protocol table (KernelWords.groups) leaves out")
        }
        for name in listed.subtracting(Self.declaredAbove) {
            XCTAssertTrue(declared.contains(name), "KernelWords lists \(name), which the Kernel layer does not declare")
        }
        XCTAssertEqual(Set(KernelWords.groups.map(\.name)).count, KernelWords.groups.count, "a group is named twice")
    }

    /// The scan finds an enum of words nested in an extension, as the
    /// Kernel layer declares them, so a group left out of the table fails.
    func testTheScanFindsANestedWordEnum() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kernelwords-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        extension Kernel {
            /// Words a new call sends.
            enum NewCallWord: String, CaseIterable {
                case begun, ended
            }
            struct Holder {
                enum Kind: String { case a }
            }
        }
        """.write(to: folder.appendingPathComponent("Kernel+New.swift"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try Self.wordEnums(in: folder), ["Kernel.NewCallWord", "Kernel.Holder.Kind"])
    }

    /// The kernel sends a property by the case's own name, and reports print
    /// its sentence: one definition (FuzzFinding.Property) for both.
    func testAPropertyCrossesByItsNameAndPrintsItsSentence() throws {
        let words = try XCTUnwrap(KernelWords.groups.first { $0.name == "property" }).words
        XCTAssertEqual(words.first, "undoRestores")
        XCTAssertEqual(FuzzFinding.Property.undoRestores.word, "undoRestores")
        XCTAssertEqual(FuzzFinding.Property.undoRestores.rawValue, "undo restores the state exactly")
        XCTAssertEqual(Set(words).count, FuzzFinding.Property.allCases.count)
    }

    /// The names of the `enum X: String` declarations in `folder`'s Swift
    /// files, each with the types around it (`Kernel.SolveChild.Kind`).
    static func wordEnums(in folder: URL) throws -> Set<String> {
        let declaration = try NSRegularExpression(pattern:
            #"^( *)(?:@\w+ +)*(?:(?:public|private|fileprivate|internal|final|indirect) +)*(struct|enum|class|actor|extension) +([A-Z][\w.]*)(.*)$"#)
        var out = Set<String>()
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        for file in files where file.pathExtension == "swift" {
            var stack: [String] = []
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                let text = String(line)
                guard let match = declaration.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                      let indent = Range(match.range(at: 1), in: text), let kind = Range(match.range(at: 2), in: text),
                      let name = Range(match.range(at: 3), in: text), let rest = Range(match.range(at: 4), in: text) else { continue }
                let level = text[indent].count / 4
                stack = Array(stack.prefix(level)) + [String(text[name])]
                let conformances = text[rest].trimmingCharacters(in: .whitespaces)
                if text[kind] == "enum", conformances.hasPrefix(": String"), !text[name].hasSuffix("CodingKeys") {
                    out.insert(stack.joined(separator: "."))
                }
            }
        }
        return out
    }
}
