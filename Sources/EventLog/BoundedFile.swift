import Glibc

/// Reads a file given from outside (a store's own small files, a password file, an attachment, a list of ids,
/// a draft's text) with a bound: at most `maxBytes` are read, a file that holds more is refused rather than
/// read whole, and a device or a folder is refused. The file is opened non-blocking, so a FIFO put where a
/// regular file belongs is not waited on. A caller that takes streams (a pipe such as `<(command)`, a device)
/// reads them to their end or past the bound, as `cat` would; a folder is never read.
package enum BoundedFile {
    /// Why a file was not read.
    package enum Failure: Error, Equatable {
        /// It cannot be opened or read (the system's reason).
        case unreadable(String)
        /// It is not a regular file (nor a stream where streams are taken): a folder, a socket, a device.
        case notAFile
        /// It holds more than the bound (its size when the file system says it).
        case tooLarge(size: Int?)
    }

    /// The bytes of the file at `path`: a regular file, or when `streams` a pipe or a device too, of at most
    /// `maxBytes`.
    package static func read(_ path: String, maxBytes: Int, streams: Bool = false) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            guard Int(st.st_size) <= maxBytes else { throw .tooLarge(size: Int(st.st_size)) }
        case S_IFIFO where streams, S_IFCHR where streams, S_IFBLK where streams:
            // Read a stream as one: waiting for its writer is what the caller asked for.
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        default:
            throw .notAFile
        }
        return try read(descriptor: fd, maxBytes: maxBytes)
    }

    /// At most `maxBytes` read from `fd` to its end (standard input, for `-`); more is refused.
    package static func read(descriptor fd: Int32, maxBytes: Int) throws(Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: min(maxBytes, 1 << 16) + 1)
        var filled = 0
        while true {
            if filled == out.count {
                guard out.count <= maxBytes else { throw .tooLarge(size: nil) }
                out += [UInt8](repeating: 0, count: min(out.count, maxBytes + 1 - out.count))
            }
            let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
            if n == 0 { break }
            filled += n
        }
        guard filled <= maxBytes else { throw .tooLarge(size: nil) }
        out.removeLast(out.count - filled)
        return out
    }
}
