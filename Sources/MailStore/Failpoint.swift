import Foundation

/// Test hooks: with `MAILSTORE_FAILPOINT=NAME` in its environment, the process ends at the point named `NAME` as a
/// kill would (exit status 86, nothing cleaned up, no `defer` run), so a test can check what such a death leaves.
/// The points: `after-server-write` and `after-draft-append` (sync), `backup-verifying` (a backup's copy written,
/// before it is verified).
enum Failpoint {
    /// Ends the process when `name` is the failpoint its environment names.
    static func reached(_ name: String) {
        if ProcessInfo.processInfo.environment["MAILSTORE_FAILPOINT"] == name { _exit(86) }
    }
}
