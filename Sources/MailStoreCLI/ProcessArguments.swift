import Foundation

/// The process's command-line arguments after the program name, as given.
///
/// Swift's `CommandLine` where it has them; else read from `/proc/self/cmdline`: Swift's runtime can find none when
/// another library's constructor runs before its own (under `LD_PRELOAD=libfaketime.so.1` `CommandLine.argc` is 0 and
/// every command crashed on the empty range of its UTF-8 check). Bytes are kept as they are, so that the caller's
/// UTF-8 check sees what was passed.
enum ProcessArguments {
    /// The most bytes of `/proc/self/cmdline` read: the kernel's bound on a command line is 1/4 of the stack's limit
    /// (2 MiB under the usual 8 MiB stack); past this the command is refused.
    static let maxBytes = 16 << 20

    /// Why the arguments could not be had.
    struct Unreadable: Error, CustomStringConvertible {
        let why: String
        var description: String { "cannot read this process's arguments: \(why)" }
    }

    /// argv[1...] as the bytes of each.
    static func raw() throws -> [[UInt8]] {
        if CommandLine.argc > 0 {
            return (1..<Int(CommandLine.argc)).map { i in
                CommandLine.unsafeArgv[i].map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) } ?? []
            }
        }
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/cmdline") else {
            throw Unreadable(why: "Swift's runtime holds none and /proc/self/cmdline cannot be opened")
        }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        guard data.count <= maxBytes else { throw Unreadable(why: "they are over \(maxBytes) bytes") }
        var parts = data.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        if parts.last?.isEmpty == true { parts.removeLast() } // the NUL ending the last one
        return Array(parts.dropFirst())
    }
}
