import Foundation

/// Runs a child process and measures its wall time and peak resident memory (its own wait4 rusage, taken by `peak-rss`).
enum ChildRun {
    struct Result {
        var status: Int32
        var seconds: Double
        /// Peak resident set size in KiB (anonymous and file-backed pages together, from the child's own wait4).
        var maxRSSKiB: Int
        /// Peak anonymous resident memory (heap, stacks) in KiB, sampled every 20 ms from /proc.
        var maxAnonKiB: Int
    }

    /// Samples a process's RssAnon from /proc until stopped.
    final class AnonSampler: @unchecked Sendable {
        private let pid: pid_t
        private let lock = NSLock()
        private var peak = 0
        private var running = true
        private var thread: Thread?

        init(pid: pid_t) {
            self.pid = pid
            let t = Thread { [self] in
                while lock.withLock({ running }) {
                    if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                       let line = text.split(separator: "\n").first(where: { $0.hasPrefix("RssAnon:") }),
                       let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
                        lock.withLock { peak = max(peak, kb) }
                    }
                    usleep(20_000)
                }
            }
            thread = t
            t.start()
        }

        func stop() -> Int {
            lock.withLock { running = false }
            while let t = thread, !t.isFinished { usleep(1000) }
            return lock.withLock { peak }
        }
    }

    /// Runs `exe` through `peak-rss` (built beside this binary): a child's wait4 ru_maxrss is at least the resident
    /// size of the process that exec'ed it, and that would be this bench (77 MiB on a 1M-message run), so the step is
    /// started by that small helper, which reports the step's own peak and its pid (for the /proc sampler).
    static func run(_ exe: String, _ args: [String], environment: [String: String] = [:], quiet: Bool = true) throws -> Result {
        let helper = BenchOptions.sibling("peak-rss")
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            throw NSError(domain: "spawn", code: 1, userInfo: [NSLocalizedDescriptionKey:
                "\(helper) missing: swift build -c release (or --product peak-rss) first"])
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0, fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            throw NSError(domain: "spawn", code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "cannot make a pipe"])
        }
        let reportFD: Int32 = 3
        if fds[1] == reportFD {  // dup2 onto itself would keep close-on-exec: move the write end off descriptor 3
            let moved = fcntl(fds[1], F_DUPFD_CLOEXEC, 10)
            guard moved >= 0 else { throw NSError(domain: "spawn", code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "cannot move a pipe"]) }
            close(fds[1])
            fds[1] = moved
        }
        defer { close(fds[0]) }
        var pid: pid_t = 0
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        if quiet {
            posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&fileActions, 2, "/dev/null", O_WRONLY, 0)
        }
        // dup2 onto descriptor 3 clears close-on-exec there; the pipe's own descriptors close at exec.
        posix_spawn_file_actions_adddup2(&fileActions, fds[1], reportFD)
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ([helper, "\(reportFD)", exe] + args).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let t = Stopwatch.now()
        let rc = posix_spawn(&pid, helper, &fileActions, nil, argv, envp)
        close(fds[1])
        guard rc == 0 else { throw NSError(domain: "spawn", code: Int(rc), userInfo: [NSLocalizedDescriptionKey: "cannot run \(exe)"]) }
        let report = ReportReader(fd: fds[0])
        let childPID = report.value(of: "pid")
        let sampler = childPID.map { AnonSampler(pid: pid_t($0)) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let secs = Double(Stopwatch.now() - t) / 1e9
        let anon = sampler?.stop() ?? 0
        // The helper's own figure (inflated by this process's size) only if it could not report the child's.
        let maxRSS = report.value(of: "maxrss") ?? Int(usage.ru_maxrss)
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exit, seconds: secs, maxRSSKiB: maxRSS, maxAnonKiB: anon)
    }

    /// Reads `peak-rss`'s report lines ("key value") from its pipe, a line at a time, at most 4 KiB in all.
    final class ReportReader {
        private let fd: Int32
        private var pending: [UInt8] = []
        private var total = 0

        init(fd: Int32) { self.fd = fd }

        /// The value of the next line if its key is `key`; nil at the pipe's end, or on another key.
        func value(of key: String) -> Int? {
            while true {
                if let nl = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<nl], as: UTF8.self)
                    pending.removeSubrange(...nl)
                    let parts = line.split(separator: " ")
                    guard parts.count == 2, parts[0] == key else { return nil }
                    return Int(parts[1])
                }
                var chunk = [UInt8](repeating: 0, count: 256)
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 256) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0, total + n <= 4096 else { return nil }
                total += n
                pending.append(contentsOf: chunk[..<n])
            }
        }
    }

    /// The full path of `name` on PATH, or nil.
    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }
}
