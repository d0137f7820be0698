import Foundation

/// Looking at processes a command under test started, for tests that check none is left running.
package enum ProcessProbe {
    /// True when `pid` no longer runs (gone, or a zombie nobody reaped yet).
    package static func isGone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
        return state == "Z" || state == "X"
    }

    /// A shell command line that writes its shell's pid to `dir/sh` and its child's to `dir/sleep` (each file whole,
    /// by a rename), then waits for the child (`sleep 60`).
    package static func commandWritingPids(in dir: String) -> String {
        "echo $$ > '\(dir)/sh.tmp' && mv '\(dir)/sh.tmp' '\(dir)/sh'; sleep 60 & echo $! > '\(dir)/sleep.tmp' && mv '\(dir)/sleep.tmp' '\(dir)/sleep'; wait"
    }

    /// The pid written in the file at `path` (by ``commandWritingPids(in:)``), or nil.
    package static func pid(in path: String) -> pid_t? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Starts `executable` with `arguments` and `environment`, its output discarded: a process a test kills (SIGKILL)
    /// while it runs a command. Not `waitUntilExit()` before killing it: Foundation's wait for a killed child lasts as
    /// long as its orphans do.
    package static func start(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }
}
