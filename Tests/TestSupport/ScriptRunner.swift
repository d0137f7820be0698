import Foundation

/// Runs a control script (such as Tools/test-server/dovecot) to completion with `posix_spawn`
/// and `waitpid`.
///
/// Not Foundation's `Process`: scripts that leave daemons behind end with a child that
/// `Process.waitUntilExit()` may never see reaped on sandboxed kernels. The output goes through
/// a file, so a daemon holding on to it cannot keep the caller waiting either.
package enum ScriptRunner {
    /// The exit status and the combined standard output and error of `executable arguments...`.
    package static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        var template = Array((NSTemporaryDirectory() + "mailstore-script-XXXXXX").utf8CString)
        let outputFD = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard outputFD >= 0 else { throw TestServerError("cannot make an output file: \(String(cString: strerror(errno)))") }
        let outputPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer {
            close(outputFD)
            unlink(outputPath)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputFD, 1)
        posix_spawn_file_actions_adddup2(&actions, outputFD, 2)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw TestServerError("cannot run \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw TestServerError("waiting for \(executable) failed: \(String(cString: strerror(errno)))") }
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
    }
}
