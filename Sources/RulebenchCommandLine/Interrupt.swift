import ArgumentParser
import Foundation
import Rulebench
import Synchronization

/// The signal that asked the command to stop (SIGINT or SIGTERM), 0 while none has.
/// Long commands poll it and stop cleanly.
package let stopSignal = Atomic<Int32>(0)

/// Routes SIGINT (Ctrl-C) and SIGTERM (what `timeout`, CI runners and
/// Kubernetes send) to `stopSignal` instead of killing the process, so a
/// long command stops at its next poll, writes what it found, and exits
/// with `interruptExitCode`. The first signal is kept: it decides the code.
/// The Lua call running at that moment is stopped too (`Interruption`), so
/// the next poll comes within a second even when a rule runs long.
package func catchInterrupts() {
    for signalNumber in [SIGINT, SIGTERM] {
        signal(signalNumber) { received in
            _ = stopSignal.compareExchange(expected: 0, desired: received, ordering: .relaxed)
            Interruption.request(signal: received)
        }
    }
}

/// True once SIGINT or SIGTERM arrived.
package var wasInterrupted: Bool { stopSignal.load(ordering: .relaxed) != 0 }

/// The exit code of a command stopped by a signal: 128 + the signal's
/// number, as a shell reports a process the signal killed, so scripts see
/// what they expect: 130 after SIGINT, 143 after SIGTERM.
package var interruptExitCode: ExitCode {
    stopSignal.load(ordering: .relaxed) == SIGTERM ? Outcome.terminated.exitCode : Outcome.interrupted.exitCode
}

/// Whether standard error is a terminal (progress lines redraw in place only there).
package var stderrIsTerminal: Bool { isatty(2) != 0 }
