import Foundation
import Glibc

/// One line on standard error when `mailstore` dies of a bad memory access (`SIGSEGV`, `SIGBUS`), before the
/// handler that was there (Swift's backtracer, a sanitizer's, or the default) does what it does.
///
/// LMDB reads where its pages say and does not check every page: a damaged store file can crash any command that
/// reads it. The line says so and what to run (`verify`, which survives such a page: `CrashGuard`), and that anything
/// else is a bug to report. The handler only writes a prepared buffer and puts the previous handler back, both
/// async-signal-safe; returning from it runs the faulting access again, which that handler then takes. A signal sent
/// by a process (`kill -SEGV`), which would not come again, is raised again instead.
enum CrashHint {
    /// The line, made before any crash (nothing is allocated in the handler).
    nonisolated(unsafe) private static var line: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var previousSEGV = sigaction()
    nonisolated(unsafe) private static var previousBUS = sigaction()

    /// Installs the handler for `SIGSEGV` and `SIGBUS` (once, at start).
    static func install() {
        line = strdup("mailstore: error: crashed on a bad memory access. A damaged store file makes LMDB, which trusts its "
                      + "pages, fail so: `mailstore verify` checks the log (restore it from a backup when it names a damaged "
                      + "page) and `mailstore replay` rebuilds the views. Otherwise this is a bug: please report it, with "
                      + "what follows.\n")
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, info, _ in
            if let line = CrashHint.line { _ = write(2, line, strlen(line)) }
            if signal == SIGBUS { _ = sigaction(signal, &CrashHint.previousBUS, nil) } else { _ = sigaction(signal, &CrashHint.previousSEGV, nil) }
            // Sent by a process, not a fault of this one: it would not happen again on return.
            if let info, info.pointee.si_code <= 0 { raise(signal) }
        }
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER
        sigemptyset(&action.sa_mask)
        sigaction(SIGSEGV, &action, &previousSEGV)
        sigaction(SIGBUS, &action, &previousBUS)
    }
}
