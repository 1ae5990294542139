import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A history saved by a path that someone else chose (a studio page's
/// `save` message), kept inside one folder.
///
/// `OutputFile` writes where the user at the terminal asked, through links
/// and into devices; a path that comes over a socket earns none of that.
/// The invariant: the file written is a regular file inside `folder`,
/// reached without following any symbolic link, created as a whole (a
/// temporary file beside it, synced, renamed over the name, the folder
/// synced), and it replaces nothing but a saved history unless `overwrite`
/// says so. The rules, each refused with a message naming the path and
/// what to write instead:
///
/// - the path is relative to the folder: not absolute, no `..`, no empty part;
/// - every folder on the way is a real folder inside it (opened with
///   `O_NOFOLLOW`, one part at a time, so a link out of it is never followed);
/// - the name is not a symbolic link, a FIFO, a device, a socket or a folder;
/// - an existing regular file is replaced only when it is a saved history
///   (its text starts as `SavedHistory.json` writes it), or when `overwrite`.
public struct FolderSave: Sendable {
    /// The folder every save stays inside (the studio's working folder).
    public let folder: URL
    /// The path as it was given, relative to `folder`.
    public let path: String
    /// Replace an existing regular file that is not a saved history.
    public let overwrite: Bool

    /// A save of `path` inside `folder`.
    public init(folder: URL, path: String, overwrite: Bool = false) {
        self.folder = folder
        self.path = path
        self.overwrite = overwrite
    }

    /// The path's folders and its file name, or why the path is refused.
    public func parts() throws(RulebenchError) -> (folders: [String], name: String) {
        guard !path.isEmpty else { throw refuse("the path is empty; give a file name such as game.json") }
        guard !path.hasPrefix("/") else {
            throw refuse("an absolute path is not saved to; give a path relative to the studio's folder, such as \(suggestion)")
        }
        guard !path.contains("\0"), !path.contains("\\") else {
            throw refuse("the path holds a NUL or a backslash; give a plain relative path such as \(suggestion)")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains("..") else {
            throw refuse("'..' leaves the studio's folder; give a path inside it, such as \(suggestion)")
        }
        guard !parts.contains(""), let name = parts.last, name != "." else {
            throw refuse("the path has an empty part or ends in a folder; give a file name such as \(suggestion)")
        }
        return (parts.dropLast().filter { $0 != "." }, name)
    }

    /// The name to suggest in messages: the path's last part, made harmless, else `game.json`.
    private var suggestion: String {
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return FolderSave.safeName(last).map { "'\($0)'" } ?? "'game.json'"
    }

    /// `name` with only letters, digits, `.`, `_` and `-`, not starting with a dot; nil when nothing is left.
    public static func safeName(_ name: String) -> String? {
        let kept = String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "-"
        })
        let trimmed = kept.drop { $0 == "." || $0 == "-" }
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// Writes `text` by the rules above.
    public func write(_ text: String) throws(RulebenchError) {
        let (folders, name) = try parts()
        let directory = try openFolders(folders)
        defer { close(directory) }
        let existing = try existingFile(name, in: directory)
        try replace(name, in: directory, with: Data(text.utf8), keepingMode: existing)
    }

    // MARK: The way there

    /// The last folder of the path, opened part by part without following links.
    private func openFolders(_ folders: [String]) throws(RulebenchError) -> Int32 {
        var fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw refuse("the studio's folder cannot be opened (\(OutputFile.describe(errno)))") }
        var walked = ""
        for part in folders {
            walked += part + "/"
            let next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            close(fd)
            guard next >= 0 else {
                switch code {
                case ENOENT: throw refuse("the folder \(walked) does not exist; create it first, or give another path")
                case ELOOP, ENOTDIR:
                    throw refuse("\(walked) is a symbolic link or a file, not a folder; the studio saves only into real folders inside its own, give another path")
                default: throw refuse("the folder \(walked) cannot be opened (\(OutputFile.describe(code))); give another path")
                }
            }
            fd = next
        }
        return fd
    }

    /// The mode of the regular file at `name` to keep (nil when there is none), or why it may not be replaced.
    private func existingFile(_ name: String, in directory: Int32) throws(RulebenchError) -> mode_t? {
        var status = stat()
        guard fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw refuse("it cannot be looked at (\(OutputFile.describe(errno))); give another path")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: throw refuse("it is a symbolic link, which the studio never writes through; give another name")
        case S_IFDIR: throw refuse("it is a folder; give a file name inside it, such as \(path)/game.json")
        default: throw refuse("it is a FIFO, a device or a socket, not a file; give the name of a new file such as \(suggestion)")
        }
        if !overwrite, !FolderSave.isSavedHistory(name, in: directory) {
            throw refuse("a file that is not a saved history is there; give another name, or send \"overwrite\": true to replace it")
        }
        return status.st_mode & 0o7777
    }

    /// Whether the file starts as a saved history does (`{"format":"rulebench-history"`), read without following links.
    static func isSavedHistory(_ name: String, in directory: Int32) -> Bool {
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        let head = String(decoding: buffer[..<count], as: UTF8.self).filter { !$0.isWhitespace }
        return head.hasPrefix("{\"format\":\"\(SavedHistory.format)\"")
    }

    // MARK: Writing

    /// A temporary file beside the name, synced, renamed over it (linked when
    /// there was none, so a file put there meanwhile is never replaced), then the folder synced.
    private func replace(_ name: String, in directory: Int32, with data: Data, keepingMode mode: mode_t?) throws(RulebenchError) {
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 where fd < 0 {
            temporary = ".\(name).rulebench-\(UInt32.random(in: .min ... .max))"
            fd = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if fd < 0 && errno != EEXIST { break }
        }
        guard fd >= 0 else { throw refuse("cannot create a file in its folder (\(OutputFile.describe(errno))); check the folder's permissions") }
        var problem: Int32 = 0
        if let mode, fchmod(fd, mode) != 0 { problem = errno }
        if problem == 0 { problem = OutputFile.writeAll(data, to: fd) }
        if problem == 0, fsync(fd) != 0 { problem = errno }
        if close(fd) != 0, problem == 0 { problem = errno }
        if problem == 0 {
            if mode == nil {
                if linkat(directory, temporary, directory, name, 0) != 0 { problem = errno }
                unlinkat(directory, temporary, 0)
            } else if renameat(directory, temporary, directory, name) != 0 {
                problem = errno
            }
        }
        if problem != 0 {
            unlinkat(directory, temporary, 0)
            if problem == EEXIST { throw refuse("a file appeared there while saving; save again") }
            throw refuse("the write failed (\(OutputFile.describe(problem))); free some space or check permissions, and save again")
        }
        if fsync(directory) != 0 { throw refuse("the folder could not be synced (\(OutputFile.describe(errno))); save again") }
    }

    private func refuse(_ reason: String) -> RulebenchError {
        .badInput(InputProblem("cannot save the history to \(path): \(reason)"))
    }

}

extension Game {
    /// Saves the history inside `folder` at the relative `path`, by `FolderSave`'s
    /// rules (a path from a page, not from the user's shell); returns the file written.
    @discardableResult
    public func save(_ path: String, inside folder: URL, overwrite: Bool = false) throws(RulebenchError) -> URL {
        let save = FolderSave(folder: folder, path: path, overwrite: overwrite)
        _ = try save.parts()
        let url = folder.appendingPathComponent(path)
        try save.write(try SavedHistory(of: self).text(forFileIn: url.deletingLastPathComponent()))
        return url
    }
}
