#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

package enum CorpusFormat: String, CaseIterable, Sendable {
    case maildir
    case mbox
}

package struct CorpusOptions: Sendable {
    package var messages: Int
    package var outputDirectory: String
    package var format: CorpusFormat
    package var seed: UInt64
    package var accounts: Int

    package init(messages: Int, outputDirectory: String, format: CorpusFormat = .maildir, seed: UInt64 = 1,
                accounts: Int = 1) {
        self.messages = messages
        self.outputDirectory = outputDirectory
        self.format = format
        self.seed = seed
        self.accounts = accounts
    }
}

package struct CorpusSummary: Sendable, Equatable {
    /// Message files (mbox entries) written, cross-post copies included.
    package var messages: Int
    /// Distinct messages (cross-post copies counted once).
    package var uniqueMessages: Int
    /// Bytes written (message files, or the mbox files).
    package var bytes: Int
    /// Conversations started (single messages included).
    package var threads: Int
    /// Root of each account's mailbox.
    package var accountRoots: [String]
}

package enum CorpusError: Error, CustomStringConvertible {
    case invalidArgument(String)
    case outputNotEmpty(String)
    case io(String, Int32)

    package var description: String {
        switch self {
        case .invalidArgument(let m): return m
        case .outputNotEmpty(let p): return "output directory \(p) exists and is not empty"
        case .io(let what, let e): return "\(what): \(String(cString: strerror(e)))"
        }
    }
}

/// Writes a whole corpus to disk and returns what was written.
package func generateCorpus(_ options: CorpusOptions) throws -> CorpusSummary {
    guard options.messages >= 0 else { throw CorpusError.invalidArgument("--messages must be >= 0") }
    guard options.accounts >= 1 else { throw CorpusError.invalidArgument("--accounts must be >= 1") }
    let out = options.outputDirectory
    try makeDirectories(out)
    guard try isEmptyDirectory(out) else { throw CorpusError.outputNotEmpty(out) }

    var summary = CorpusSummary(messages: 0, uniqueMessages: 0, bytes: 0, threads: 0, accountRoots: [])
    for account in 0 ..< options.accounts {
        let share = options.messages / options.accounts + (account < options.messages % options.accounts ? 1 : 0)
        let root = options.accounts == 1 ? out : out + "/account" + String(account + 1)
        summary.accountRoots.append(root)
        let stream = CorpusStream(configuration: CorpusConfiguration(messages: share, seed: options.seed,
                                                                     account: account))
        switch options.format {
        case .maildir:
            let writer = try MaildirWriter(root: root, seed: options.seed)
            while let m = stream.next() {
                try writer.write(m)
            }
            summary.bytes += writer.bytesWritten
        case .mbox:
            try makeDirectories(root)
            let writer = try MboxWriter(path: root + "/mbox")
            while let m = stream.next() {
                try writer.write(m)
            }
            try writer.close()
            summary.bytes += writer.bytesWritten
        }
        summary.messages += stream.slot
        summary.uniqueMessages += stream.uniqueCount
        summary.threads += stream.threadCount
    }
    return summary
}

// MARK: - File system helpers

func makeDirectories(_ path: String) throws {
    var current = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        current += "/" + component
        if mkdir(current, 0o755) != 0 {
            let e = errno
            if e != EEXIST { throw CorpusError.io("mkdir \(current)", e) }
        }
    }
}

func isEmptyDirectory(_ path: String) throws -> Bool {
    guard let dir = opendir(path) else { throw CorpusError.io("opendir \(path)", errno) }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
        // The name read where it lies: `entry.pointee.d_name` copies 256 bytes, past a short last entry's end.
        let name = String(cString: UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
            .assumingMemoryBound(to: CChar.self))
        if name != "." && name != ".." { return false }
    }
    return true
}

private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
    var offset = 0
    while offset < bytes.count {
        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            throw CorpusError.io("write \(path)", errno)
        }
        offset += n
    }
}

@inline(__always)
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }

// MARK: - Maildir

/// Writes messages into a Maildir++ tree: `cur/new/tmp` for INBOX and one
/// dot-folder per other folder. File names: `TIMESTAMP.SEQ_SEED.gen:2,FLAGS`
/// (`new/` files have no info part). Each file's mtime is its delivery time.
final class MaildirWriter {
    private var prefixes: [[UInt8]] = []
    private let seedText: [UInt8]
    private(set) var bytesWritten = 0
    private var path: [UInt8] = []

    init(root: String, seed: UInt64) throws {
        seedText = Array(String(seed).utf8)
        try makeDirectories(root)
        for folder in Folder.allCases {
            let dir = folder == .inbox ? root : root + "/" + folder.maildirName
            try makeDirectories(dir)
            for sub in ["cur", "new", "tmp"] { try makeDirectories(dir + "/" + sub) }
            if folder != .inbox {
                // Maildir++ marks subfolders with an empty `maildirfolder` file.
                let marker = dir + "/maildirfolder"
                let fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                if fd < 0 { throw CorpusError.io("create \(marker)", errno) }
                close(fd)
            }
            prefixes.append(Array((dir + "/").utf8))
        }
    }

    func write(_ m: GeneratedMessage) throws {
        path.removeAll(keepingCapacity: true)
        path.append(contentsOf: prefixes[m.folder.rawValue])
        path.put(m.isNew ? "new/" : "cur/")
        path.putDecimal(m.timestamp)
        path.append(UInt8(ascii: "."))
        path.putDecimal(m.slot)
        path.append(UInt8(ascii: "_"))
        path.append(contentsOf: seedText)
        path.put(".gen")
        if !m.isNew {
            path.put(":2,")
            m.flags.appendLetters(to: &path)
        }
        path.append(0)
        let fd = path.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) {
                open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            }
        }
        if fd < 0 {
            throw CorpusError.io("create \(String(decoding: path.dropLast(), as: UTF8.self))", errno)
        }
        defer { close(fd) }
        try m.bytes.withUnsafeBytes { try writeAll(fd, $0, path: "message file") }
        var times = (timespec(tv_sec: m.timestamp, tv_nsec: 0), timespec(tv_sec: m.timestamp, tv_nsec: 0))
        _ = withUnsafePointer(to: &times) {
            $0.withMemoryRebound(to: timespec.self, capacity: 2) { futimens(fd, $0) }
        }
        bytesWritten += m.bytes.count
    }
}

// MARK: - mbox (mboxrd)

/// Writes an mboxrd file: `From envelope asctime` separator lines, lines
/// matching `^>*From ` quoted with one more `>`, flags as Status/X-Status
/// headers, and an empty line after each message. Lines end in CRLF
/// throughout (the messages keep their IMAP-style CRLF).
final class MboxWriter {
    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private let flushThreshold = 1 << 20
    private(set) var bytesWritten = 0

    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw CorpusError.io("create \(path)", errno) }
        buffer.reserveCapacity(flushThreshold + 65536)
    }

    func write(_ m: GeneratedMessage) throws {
        buffer.put("From ")
        buffer.append(contentsOf: m.envelopeSender)
        buffer.append(UInt8(ascii: " "))
        buffer.putAsctime(epoch: m.timestamp)
        buffer.putCRLF()
        m.bytes.withUnsafeBufferPointer { p in
            appendQuoted(UnsafeBufferPointer(rebasing: p[0 ..< m.headerLength]))
            // Flags (mutt/Thunderbird convention).
            if !m.isNew {
                buffer.put(m.flags.contains(.seen) ? "Status: RO" : "Status: O")
                buffer.putCRLF()
                var x: [UInt8] = []
                if m.flags.contains(.replied) { x.append(UInt8(ascii: "A")) }
                if m.flags.contains(.flagged) { x.append(UInt8(ascii: "F")) }
                if m.flags.contains(.draft) { x.append(UInt8(ascii: "T")) }
                if m.flags.contains(.trashed) { x.append(UInt8(ascii: "D")) }
                if !x.isEmpty {
                    buffer.put("X-Status: "); buffer.append(contentsOf: x); buffer.putCRLF()
                }
            }
            appendQuoted(UnsafeBufferPointer(rebasing: p[m.headerLength...]))
        }
        buffer.putCRLF()
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Copies lines, adding a `>` before any line matching `^>*From `.
    private func appendQuoted(_ p: UnsafeBufferPointer<UInt8>) {
        let n = p.count
        var lineStart = 0
        while lineStart < n {
            var j = lineStart
            while j < n && p[j] == UInt8(ascii: ">") { j += 1 }
            if j + 5 <= n && p[j] == UInt8(ascii: "F") && p[j + 1] == UInt8(ascii: "r") && p[j + 2] == UInt8(ascii: "o")
                && p[j + 3] == UInt8(ascii: "m") && p[j + 4] == UInt8(ascii: " ") {
                buffer.append(UInt8(ascii: ">"))
            }
            let end = findByte(asciiLF, in: p, from: j).map { $0 + 1 } ?? n
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: p[lineStart ..< end]))
            lineStart = end
        }
    }

    private func flush() throws {
        try buffer.withUnsafeBytes { try writeAll(fd, $0, path: path) }
        bytesWritten += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if posixClose(fd) != 0 { throw CorpusError.io("close \(path)", errno) }
    }
}
