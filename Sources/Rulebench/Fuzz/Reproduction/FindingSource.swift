import Foundation

/// The rule file and line a finding's header names (`# Blame: ... actions/move.lua:12`),
/// and the lines around it, read only from the finding's own pack.
///
/// A header is text anyone can write: the studio shows the source around
/// the place it names to every page. Two invariants keep that safe:
/// - finding the place is one pass over the text (a hand-written scanner,
///   no backtracking): a 32k-character line costs a 32k-character walk;
/// - a file is read only when, symbolic links resolved, it lies inside one
///   of the pack's folders (the pack and the bases it extends), and is a
///   regular file of at most `InputFile.maximumBytes`; any other path is
///   shown as the path alone, never opened.
public struct FindingSource: Sendable, Equatable {
    /// The file as the header names it (`rules/race/actions/move.lua`).
    public var file: String
    /// The line it names (1-based).
    public var line: Int

    /// A place.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// The first `NAME.lua:LINE` in the texts: NAME made of letters, digits,
    /// `_ . / -`; LINE digits. Nil when none has a line that fits an `Int`.
    public static func first(in texts: [String]) -> FindingSource? {
        for text in texts {
            if let found = scan(Array(text.utf8)) { return found }
        }
        return nil
    }

    /// One left-to-right pass: at each `.lua:` the name is the run of name
    /// bytes ending there (tracked as the pass goes, so never walked back over).
    private static func scan(_ bytes: [UInt8]) -> FindingSource? {
        let suffix = Array(".lua:".utf8)
        var nameStart = 0   // where the current run of name bytes began
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if !isNameByte(byte) {
                nameStart = index + 1
                index += 1
                continue
            }
            if byte == UInt8(ascii: "."), index + suffix.count <= bytes.count,
               bytes[index..<index + suffix.count].elementsEqual(suffix), index > nameStart {
                var end = index + suffix.count
                while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
                let digits = bytes[(index + suffix.count)..<end]
                if !digits.isEmpty, let line = Int(String(decoding: digits, as: UTF8.self)) {
                    return FindingSource(file: String(decoding: bytes[nameStart..<index + 4], as: UTF8.self), line: line)
                }
            }
            index += 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Up to `context` lines either side of the line, numbered, from the first
    /// candidate file that lies inside one of `packFolders`; empty when none does,
    /// when the file cannot be read, or when the line is not in it.
    ///
    /// The candidates: the path from the working directory (fuzz names files
    /// so), then from the finding's folder and each folder above it.
    public func lines(beside finding: URL, packFolders: [URL], context: Int = 3) -> [(number: Int, text: String)] {
        guard let url = readable(beside: finding, packFolders: packFolders),
              let text = try? InputFile.text(url, display: PackFiles.display(url)) else { return [] }
        return SourceLocation(file: file, line: line).lines(in: text, spread: context)
    }

    /// The first candidate that exists inside one of the pack's folders (links resolved).
    func readable(beside finding: URL, packFolders: [URL]) -> URL? {
        let roots = packFolders.map { $0.resolvingSymlinksInPath().standardizedFileURL.path + "/" }
        var candidates = [URL(fileURLWithPath: file)]
        if !file.hasPrefix("/") {
            var folder = finding.standardizedFileURL.deletingLastPathComponent()
            while folder.path != "/" {
                candidates.append(folder.appendingPathComponent(file))
                folder = folder.deletingLastPathComponent()
            }
        }
        return candidates.first { candidate in
            let resolved = candidate.resolvingSymlinksInPath().standardizedFileURL.path
            return roots.contains { resolved.hasPrefix($0) } && FileManager.default.fileExists(atPath: resolved)
        }
    }
}
