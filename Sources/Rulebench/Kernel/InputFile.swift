import Foundation

/// A file of user input read whole (a scenario, a finding, a saved history,
/// a corpus entry, a pack's Lua, an image the studio serves): one size limit
/// and one message for all of them.
///
/// The invariant: no input file costs more than `maximumBytes` of memory to
/// read, whatever its size on disk, and a FIFO or a device is never opened
/// (it could block forever or never end). The size is checked before the
/// read, and the read itself stops at the limit, so a file that grows in
/// between is refused too.
public enum InputFile {
    /// The most bytes Rulebench reads from one input file: 16 MiB.
    public static let maximumBytes = 16 << 20

    /// The message for a file past the limit, the same for every command.
    public static func tooLarge(_ size: Int, file: String) -> RulebenchError {
        .badInput(InputProblem("the file has \(size) bytes, more than the \(maximumBytes >> 20) MiB (\(maximumBytes) bytes) "
                               + "Rulebench reads from one input file; split it into smaller files, or shorten it", file: file))
    }

    /// The bytes of the regular file at `url`; `display` names it in errors.
    ///
    /// - Throws: `.badInput` when the file is missing, not a regular file,
    ///   past `maximumBytes`, or cannot be read.
    public static func bytes(_ url: URL, display: String) throws(RulebenchError) -> Data {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            let reason = errno == ENOENT ? "cannot read the file: no such file" : "cannot read the file (\(String(cString: strerror(errno))))"
            throw .badInput(InputProblem(reason, file: display))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .badInput(InputProblem(status.st_mode & S_IFMT == S_IFDIR ? "it is a folder; give a file"
                                         : "not a regular file (a FIFO or a device); give a file", file: display))
        }
        guard status.st_size <= maximumBytes else { throw tooLarge(Int(status.st_size), file: display) }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .badInput(InputProblem("cannot read the file (check its permissions)", file: display))
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            throw .badInput(InputProblem("cannot read the file (\(error.localizedDescription))", file: display))
        }
        guard data.count <= maximumBytes else { throw tooLarge(data.count, file: display) }
        return data
    }

    /// The file as text; bytes that are not UTF-8 are an error at line 1.
    public static func text(_ url: URL, display: String) throws(RulebenchError) -> String {
        guard let text = String(data: try bytes(url, display: display), encoding: .utf8) else {
            throw .badInput(InputProblem("the file is not UTF-8 text", file: display, line: 1, column: 1))
        }
        return text
    }
}
