import Synchronization
#if canImport(Glibc)
@preconcurrency import Glibc   // `stdout` is a C global; reading it is safe here (one thread writes results)
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Standard output, where commands print their results: a write that fails
/// there is a failure of the command (exit 2 with a one-line message), never
/// a silent success. Invariant: every exit of the process goes through
/// `ParsableCommand.runAsMain` (CommandMain.swift), which asks `failure()`
/// before it exits.
///
/// Results are printed through stdio (`print`), which buffers and keeps the
/// first error in the stream. Three ways to lose them: a full device
/// (`> /dev/full`: ENOSPC), a pipe whose reader is gone (`| head -1`), and a
/// closed descriptor (`>&-`).
package enum StandardOutput {
    /// Readies the process before any command runs: SIGPIPE is ignored, so a
    /// pipe whose reader has gone is a failed write (EPIPE) the command
    /// reports, not a death by signal that a pipeline shows as success; and a
    /// closed descriptor 0, 1 or 2 is opened on /dev/null (1 read-only, so
    /// printing fails with EBADF), so that no file the command opens later
    /// takes number 1 and receives the results.
    package static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            _ = open("/dev/null", descriptor == 1 ? O_RDONLY : O_RDWR)   // the lowest free number: this one
        }
    }

    /// The errno of the first flush that failed (0: none yet). Kept because
    /// a stream that failed once fails its later flushes without a reason.
    private static let firstError = Atomic<Int32>(0)

    /// Flushes standard output now (a command that prints as it goes calls
    /// this after each line), keeping why the first failed flush failed.
    package static func flush() {
        errno = 0
        if fflush(stdout) != 0 && errno != 0 {
            _ = firstError.compareExchange(expected: 0, desired: errno, ordering: .relaxed)
        }
    }

    /// Flushes standard output; why writing to it failed, or nil when
    /// everything printed reached it.
    package static func failure() -> String? {
        errno = 0
        let flushed = fflush(stdout) == 0
        let code = errno != 0 ? errno : firstError.load(ordering: .relaxed)
        let reason = code == 0 ? nil : String(cString: strerror(code))
        guard !flushed || ferror(stdout) != 0 else { return nil }
        return "cannot write the results to standard output" + (reason.map { " (\($0))" } ?? "")
            + ": the results printed there are incomplete"
    }
}
