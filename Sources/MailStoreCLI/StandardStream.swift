import CProcess
import Foundation

/// Writes to standard output and standard error without trapping: Foundation's `FileHandle.write` stops the process
/// (a Swift runtime trap, exit 132) when the write fails, as it does on a full disk (`>/dev/full`) or a closed pipe.
/// Standard output's failures are the command's: it says what failed and exits with the data error code (3); a broken
/// pipe (a reader that stopped reading, `| head`) ends it quietly with 141, as SIGPIPE would. Standard error's are
/// dropped: there is nowhere left to tell.
enum StandardStream {
    /// Writes all of `data` to standard output, after whatever `print` left in stdio's buffer.
    static func out(_ data: Data) {
        fflush(nil)
        if let errorNumber = writeAll(data, to: STDOUT_FILENO) { failed(errorNumber) }
    }

    /// Writes all of `data` to standard error (best effort).
    static func err(_ data: Data) {
        _ = writeAll(data, to: STDERR_FILENO)
    }

    /// Ends a command's output: flushes stdio's standard output and fails the command (as ``out(_:)`` does) when any of
    /// it could not be written, so output lost to a full disk is never an exit status 0.
    static func finish() {
        let errorNumber = mailstore_stdout_finish()
        if errorNumber != 0 { failed(errorNumber) }
    }

    /// The error number of the write that failed, nil when every byte was written.
    private static func writeAll(_ data: Data, to fd: Int32) -> Int32? {
        data.withUnsafeBytes { raw -> Int32? in
            guard var p = raw.baseAddress else { return nil }
            var left = raw.count
            while left > 0 {
                let n = write(fd, p, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                left -= n
                p += n
            }
            return nil
        }
    }

    private static func failed(_ errorNumber: Int32) -> Never {
        if errorNumber == EPIPE { exit(141) }
        let why = errorNumber == 0x7fff_ffff ? "a write failed" : String(cString: strerror(errorNumber))
        err(Data("mailstore: error: cannot write the output: \(why) (a full disk or a closed pipe?); what was not written is lost, nothing else failed\n".utf8))
        exit(3)
    }
}
