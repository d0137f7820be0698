import ArgumentParser
import Foundation
import MailStore

/// Thread ids read from a file or standard input (`--ids-from FILE`, `-` for standard input): one id per line,
/// surrounding blanks trimmed, empty lines and lines starting with `#` skipped. The source is hostile: at most
/// `maxBytes` are read, at most `maxIDs` ids taken, and a line longer than `maxIDBytes` or not UTF-8 is refused
/// with its line number (a thread id is 16 hexadecimal digits).
///
/// This is the way to hand a command thousands of threads: swift-argument-parser takes time quadratic in the
/// number of values of an array argument (each value merges the set of every argument index seen so far:
/// 8,000 ids took 2.3 s), so the command line is bounded by `MailstoreCommand.maxArguments`.
enum ThreadIDList {
    /// The most ids one list may hold (the spec's mailbox has 50,000 threads).
    static let maxIDs = 100_000
    /// The most bytes of one id.
    static let maxIDBytes = 256
    /// The most bytes read from the source.
    static let maxBytes = 8 << 20

    /// The ids in `path` (`-`: standard input; a file or a pipe such as `<(command)`).
    static func read(_ path: String) throws -> [String] {
        let bytes: [UInt8]
        do {
            bytes = path == "-" ? try MailStore.readStandardInput(maxBytes: maxBytes)
                                : try MailStore.readInput(path, maxBytes: maxBytes, streams: true)
        } catch {
            switch error {
            case .tooLarge:
                throw ValidationError("--ids-from: '\(path)' is over \(maxBytes >> 20) MiB: give at most \(maxIDs) thread ids, one per line")
            default:
                throw ValidationError("--ids-from: cannot read '\(path)': give a file of thread ids, one per line, or - for standard input")
            }
        }
        return try parse(bytes, source: path)
    }

    /// The ids in `bytes`, read from `source` (named in errors).
    static func parse(_ bytes: [UInt8], source: String) throws -> [String] {
        var ids: [String] = []
        var lineNumber = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = raw.drop { isBlank($0) }
            while let last = line.last, isBlank(last) { line.removeLast() }
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            guard line.count <= maxIDBytes else {
                throw ValidationError("--ids-from: line \(lineNumber) of '\(source)' is \(line.count) bytes long: not a thread id (at most \(maxIDBytes) bytes)")
            }
            guard let id = String(validating: line, as: UTF8.self) else {
                throw ValidationError("--ids-from: line \(lineNumber) of '\(source)' is not UTF-8 text: not a thread id")
            }
            guard ids.count < maxIDs else {
                throw ValidationError("--ids-from: '\(source)' holds more than \(maxIDs) thread ids: split it into several commands")
            }
            ids.append(id)
        }
        return ids
    }

    private static func isBlank(_ b: UInt8) -> Bool {
        b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r")
    }
}
