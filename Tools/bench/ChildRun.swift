import Foundation

/// Runs a child process and measures its wall time and peak resident memory (from wait4's rusage).
enum ChildRun {
    struct Result {
        var status: Int32
        var seconds: Double
        /// Peak resident set size in KiB (anonymous and file-backed pages together, from wait4).
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

    static func run(_ exe: String, _ args: [String], environment: [String: String] = [:], quiet: Bool = true) throws -> Result {
        var pid: pid_t = 0
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        if quiet {
            posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&fileActions, 2, "/dev/null", O_WRONLY, 0)
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ([exe] + args).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let t = Stopwatch.now()
        let rc = posix_spawn(&pid, exe, &fileActions, nil, argv, envp)
        guard rc == 0 else { throw NSError(domain: "spawn", code: Int(rc), userInfo: [NSLocalizedDescriptionKey: "cannot run \(exe)"]) }
        let sampler = AnonSampler(pid: pid)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let secs = Double(Stopwatch.now() - t) / 1e9
        let anon = sampler.stop()
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exit, seconds: secs, maxRSSKiB: Int(usage.ru_maxrss), maxAnonKiB: anon)
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
