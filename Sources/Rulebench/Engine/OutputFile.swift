import Foundation
#if canImport(Glibc)
import Glibc
/// The system's write(2); the name is taken by `OutputFile.write` inside the type.
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A file the user named for output (a JUnit report, an SVG chart, a saved
/// history, an LCOV file, a reproduction), written without changing what the
/// path is.
///
/// `Data.write(options: .atomic)` writes a temporary file and renames it over
/// the path, which *replaces* whatever the path was: `--junit /dev/stdout`
/// run as root turned /dev/stdout into a regular file, a FIFO lost its
/// reader, a symbolic link became a plain file. So what happens depends on
/// what the path is now:
///
/// - nothing, or a regular file: a temporary file beside it is written and
///   renamed over it, so a failed write leaves the old file (or nothing),
///   never half a file; a file that was there keeps its permissions;
/// - a symbolic link: written through, in place, like a shell's `>` (the
///   target changes, the link stays; a link to nothing creates its target);
/// - a device or a FIFO: opened and written in place;
/// - a folder or a socket: refused, with a message saying what to give.
///
/// Errors are `.badInput` naming the path as it was given and saying what
/// to do next.
public struct OutputFile: Sendable {
    /// The path as the user gave it (messages show it so).
    public let path: String
    /// What is written, for messages: "the JUnit report".
    public let purpose: String

    /// An output file at `path` (relative paths resolve against the working directory).
    public init(path: String, purpose: String) {
        self.path = path
        self.purpose = purpose
    }

    /// An output file at `url`.
    public init(_ url: URL, purpose: String) {
        self.init(path: url.path, purpose: purpose)
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws(RulebenchError) {
        try write(Data(text.utf8))
    }

    /// Writes `data` (see the type's description for how).
    public func write(_ data: Data) throws(RulebenchError) {
        switch try kind() {
        case .missing: try replace(with: data, keepingMode: nil)
        case .regular(let mode): try replace(with: data, keepingMode: mode)
        case .symlink(let target): try writeInPlace(data, truncating: target != .special, creating: target == .missing)
        case .special: try writeInPlace(data, truncating: false, creating: false)
        }
    }

    /// Writes `text` as a new file: false, writing nothing, when the path
    /// exists (of any kind). All or nothing, as `write` replaces a file: a
    /// temporary file beside it, then linked to the path, which fails when
    /// the path was taken meanwhile (another process writing the same name).
    public func create(_ text: String) throws(RulebenchError) -> Bool {
        var status = stat()
        if lstat(path, &status) == 0 { return false }
        return try replace(with: Data(text.utf8), keepingMode: nil, exclusive: true)
    }

    /// Checks, without writing, that a write would not be refused for what
    /// the path is or for its folder (so a long command can fail before it
    /// works rather than after). A write can still fail later (a full disk).
    public func checkWritable() throws(RulebenchError) {
        switch try kind() {
        case .missing, .regular:
            // Both are written as a new file in the folder, then renamed.
            let folder = OutputFolder(path: parentFolder, purpose: purpose)
            guard folder.existsAsFolder else { throw failure(folder.missingReason) }
            if access(parentFolder, W_OK | X_OK) != 0 {
                throw failure("cannot create a file in the folder \(parentFolder) (\(OutputFile.describe(errno))); check its permissions, or give another path")
            }
        case .symlink(.missing):
            break   // open() reports the target's folder if it is missing
        case .symlink, .special:
            if access(path, W_OK) != 0 {
                throw failure("cannot open it for writing (\(OutputFile.describe(errno))); check its permissions, or give another path")
            }
        }
    }

    // MARK: What the path is

    /// What a path names, as far as writing to it goes.
    enum Kind: Equatable {
        case missing
        case regular(mode: mode_t)
        /// A symbolic link, and what its target is (`.missing` when it points to nothing).
        indirect case symlink(Kind)
        /// A device or a FIFO: written in place, never replaced.
        case special
    }

    private func kind() throws(RulebenchError) -> Kind {
        guard !path.isEmpty else { throw .badInput(InputProblem("cannot write \(purpose): the path is empty; give a file path")) }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return .missing }
            throw failure(OutputFile.reason(errno, folder: parentFolder))
        }
        if status.st_mode & S_IFMT == S_IFLNK {
            var target = stat()
            guard stat(path, &target) == 0 else {
                if errno == ENOENT { return .symlink(.missing) }
                throw failure(OutputFile.reason(errno, folder: parentFolder))
            }
            return .symlink(try OutputFile.kind(of: target.st_mode, failing: failure))
        }
        return try OutputFile.kind(of: status.st_mode, failing: failure)
    }

    private static func kind(of mode: mode_t, failing: (String) -> RulebenchError) throws(RulebenchError) -> Kind {
        switch mode & S_IFMT {
        case S_IFREG: return .regular(mode: mode & 0o7777)
        case S_IFDIR: throw failing("it is a folder; give a file path")
        case S_IFSOCK: throw failing("it is a socket; give a file path")
        default: return .special   // character or block device, FIFO
        }
    }

    /// The folder the file is in ("." for a bare name).
    private var parentFolder: String { PathText.parent(of: path) }

    // MARK: Writing

    /// Temporary file beside the path, then rename: all or nothing. With
    /// `exclusive`, linked to the path instead (false when it exists).
    @discardableResult
    private func replace(with data: Data, keepingMode mode: mode_t?, exclusive: Bool = false) throws(RulebenchError) -> Bool {
        let name = PathText.lastComponent(of: path)
        var temporary = ""
        var fd: Int32 = -1
        // O_EXCL: never write through a file or link someone else put there.
        for _ in 0..<16 where fd < 0 {
            temporary = PathText.parent(of: path, joinedWith: ".\(name).rulebench-\(UInt32.random(in: .min ... .max))")
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd < 0 && errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure(OutputFile.reason(errno, folder: parentFolder)) }
        var problem: Int32 = 0
        // A new file gets 0666 less the umask from open(); a replaced one keeps its own mode.
        if let mode, fchmod(fd, mode) != 0 { problem = errno }
        if problem == 0 { problem = OutputFile.writeAll(data, to: fd) }
        if problem == 0, fsync(fd) != 0 { problem = errno }
        if close(fd) != 0, problem == 0 { problem = errno }
        if exclusive {
            if problem == 0, link(temporary, path) != 0 { problem = errno }
            unlink(temporary)
            if problem == EEXIST { return false }
        } else if problem == 0, rename(temporary, path) != 0 {
            problem = errno
        }
        if problem != 0 {
            unlink(temporary)
            throw failure(OutputFile.reason(problem, folder: parentFolder))
        }
        return true
    }

    /// Opens the path itself (following links) and writes into it.
    private func writeInPlace(_ data: Data, truncating: Bool, creating: Bool) throws(RulebenchError) {
        let flags = O_WRONLY | O_CLOEXEC | (truncating ? O_TRUNC : 0) | (creating ? O_CREAT : 0)
        let fd = open(path, flags, 0o666)
        guard fd >= 0 else {
            if errno == ENOENT, creating {
                throw failure("it is a symbolic link to \(OutputFile.linkTarget(path)), whose folder does not exist; create it, or give another path")
            }
            throw failure(OutputFile.reason(errno, folder: parentFolder))
        }
        var problem = OutputFile.writeAll(data, to: fd)
        if close(fd) != 0, problem == 0 { problem = errno }
        if problem != 0 { throw failure(OutputFile.reason(problem, folder: parentFolder)) }
    }

    /// Writes every byte (a pipe or a device may take fewer at a time); returns 0 or the errno.
    static func writeAll(_ data: Data, to fd: Int32) -> Int32 {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32 in
            guard var next = buffer.baseAddress else { return 0 }
            var left = buffer.count
            while left > 0 {
                let written = systemWrite(fd, next, left)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                next += written
                left -= written
            }
            return 0
        }
    }

    // MARK: Messages

    private func failure(_ reason: String) -> RulebenchError {
        .badInput(InputProblem("cannot write \(purpose): \(reason)", file: path))
    }

    private static func linkTarget(_ path: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "a missing file"
    }

    /// Why a system call on the path failed, and what to do about it.
    static func reason(_ code: Int32, folder: String) -> String {
        switch code {
        case ENOENT: return "the folder \(folder) does not exist; create it first, or give another path"
        case ENOTDIR: return "a part of the path is a file, not a folder; give another path"
        case EISDIR: return "it is a folder; give a file path"
        case EACCES, EPERM: return "permission denied; check the permissions of the file and of \(folder), or give another path"
        case EROFS: return "the file system is read-only; give another path"
        case ENOSPC, EDQUOT: return "the disk is full (\(describe(code))); free some space, or give another path"
        case ENXIO: return "nothing is reading it (\(describe(code))); give a file path"
        default: return describe(code)
        }
    }

    /// The system's wording of an errno.
    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// A folder the user named for output (the fuzzer's `--out` and `--corpus`),
/// checked before a long command starts and created when first needed.
public struct OutputFolder: Sendable {
    /// The path as the user gave it.
    public let path: String
    /// What goes in it, for messages: "the reproductions (--out)".
    public let purpose: String

    /// An output folder at `path`.
    public init(path: String, purpose: String) {
        self.path = path
        self.purpose = purpose
    }

    /// An output folder at `url`.
    public init(_ url: URL, purpose: String) {
        self.init(path: url.path, purpose: purpose)
    }

    /// Whether the path is a folder now (following links).
    var existsAsFolder: Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Why the folder is not there (for a file's folder).
    var missingReason: String {
        FileManager.default.fileExists(atPath: path)
            ? "\(path) is a file, not a folder; give another path"
            : "the folder \(path) does not exist; create it first, or give another path"
    }

    /// Checks, without creating anything, that files can be written in the
    /// folder: it is a writable folder, or it does not exist yet and its
    /// nearest existing ancestor is a writable folder (so it can be made).
    public func checkUsable() throws(RulebenchError) {
        var candidate = path.isEmpty ? "." : path
        while true {
            var status = stat()
            if stat(candidate, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    throw failure(candidate == path
                        ? "it is a file, not a folder; give a folder path"
                        : "\(candidate) is a file, so the folder cannot be made; give another path")
                }
                if access(candidate, W_OK | X_OK) != 0 {
                    throw failure("cannot create files in \(candidate) (\(OutputFile.describe(errno))); check its permissions, or give another folder")
                }
                return
            }
            guard errno == ENOENT || errno == ENOTDIR else {
                throw failure(OutputFile.reason(errno, folder: candidate))
            }
            let parent = PathText.parent(of: candidate)
            // "." or "/" missing: the working folder was deleted.
            guard parent != candidate else { throw failure(OutputFile.reason(ENOENT, folder: candidate)) }
            candidate = parent
        }
    }

    /// Creates the folder (and its missing ancestors) when it does not exist.
    public func create() throws(RulebenchError) {
        if existsAsFolder { return }
        try checkUsable()
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw failure("cannot create the folder (\(error.localizedDescription)); give another folder")
        }
    }

    private func failure(_ reason: String) -> RulebenchError {
        .badInput(InputProblem("cannot write \(purpose): \(reason)", file: path))
    }
}

/// Paths as text, kept as the user wrote them (messages show them so; `URL`
/// makes them absolute). `NSString.deletingLastPathComponent` is not used:
/// on this toolchain's Foundation (Linux) it traps on ".".
enum PathText {
    /// The folder `path` is in: "." for a bare name, "/" for a name at the root.
    static func parent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(Substring(path))
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmingTrailingSlashes(trimmed[..<slash])
        return parent.isEmpty ? "/" : String(parent)
    }

    /// The parent folder of `path` joined with `name`.
    static func parent(of path: String, joinedWith name: String) -> String {
        let folder = parent(of: path)
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The last part of `path` ("report.xml" of "build/report.xml").
    static func lastComponent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(Substring(path))
        return String(trimmed[(trimmed.lastIndex(of: "/").map(trimmed.index(after:)) ?? trimmed.startIndex)...])
    }

    private static func trimmingTrailingSlashes(_ text: Substring) -> Substring {
        var text = text
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        return text
    }
}
