/// What the first bytes of a file given as an mbox say it is, before any of it is split (``inspect(_:)``).
///
/// An mbox begins with a From_ line (after blank lines, if any). A file that does not is not split as one: a
/// compressed mbox, a lone message or a UTF-16 file read as mbox become one junk message without a word. A UTF-8
/// byte-order mark before the first From_ line is skipped; lines ending in CR alone (old Mac OS) are told apart so
/// they can be read as lines (``LoneCRLineEnds``).
package enum MboxStart: Sendable, Equatable {
    /// An mbox: its first `skip` bytes are a UTF-8 byte-order mark to leave out (3, else 0); `loneCR` when its
    /// first ``sniffBytes`` hold CRs and no LF (lines ending in CR alone, as old Mac OS wrote them).
    case mbox(skip: Int, loneCR: Bool)
    /// A compressed file (by its magic number), not an mbox.
    case compressed(Compression)
    /// Not an mbox: no From_ line at its start. `begins` says what it begins with (safe for a terminal), `advice`
    /// what to do.
    case notMbox(begins: String, advice: String)

    /// A compression format told by its first bytes.
    package enum Compression: String, Sendable, Equatable, CaseIterable {
        case gzip, bzip2, xz, zstd

        /// The format's magic number at the start of a file.
        var magic: [UInt8] {
            switch self {
            case .gzip: [0x1F, 0x8B]
            case .bzip2: Array("BZh".utf8)
            case .xz: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
            case .zstd: [0x28, 0xB5, 0x2F, 0xFD]
            }
        }

        /// The file name extension the format's tool adds.
        package var fileExtension: String {
            switch self {
            case .gzip: ".gz"
            case .bzip2: ".bz2"
            case .xz: ".xz"
            case .zstd: ".zst"
            }
        }

        /// The command that writes the file's content to standard output.
        package var decompressToStdout: String {
            switch self {
            case .gzip: "gzip -dc"
            case .bzip2: "bzip2 -dc"
            case .xz: "xz -dc"
            case .zstd: "zstd -dc"
            }
        }
    }

    /// The most bytes of a file's start looked at (64 KiB): the importer holds this much before it splits anything.
    package static let sniffBytes = 64 << 10

    /// What `head`, a file's first bytes (``sniffBytes`` of them, or fewer: the whole file), is. An empty file, or
    /// one of blank lines only, is an mbox of no messages; one whose first ``sniffBytes`` are all blank lines is left
    /// to the splitter.
    package static func inspect(_ head: [UInt8]) -> MboxStart {
        for c in Compression.allCases where head.starts(with: c.magic) { return .compressed(c) }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let skip = head.starts(with: bom) ? bom.count : 0
        var i = skip
        while i < head.count, head[i] == ASCII.lf || head[i] == ASCII.cr { i += 1 }
        if i == head.count { return .mbox(skip: skip, loneCR: false) }
        guard !head[i...].starts(with: Array("From ".utf8)) else {
            let loneCR = !head.contains(ASCII.lf) && head.contains(ASCII.cr)
            return .mbox(skip: skip, loneCR: loneCR)
        }
        return notMbox(head, from: i)
    }

    /// The refusal of a file whose first non-blank line, at `start`, is not a From_ line.
    private static func notMbox(_ head: [UInt8], from start: Int) -> MboxStart {
        let single = "a lone message needs a From_ line before it (`From sender@example.com Thu Jan  1 00:00:00 2026`) "
            + "to be read as an mbox; a folder of message files imports with --maildir"
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            return .notMbox(begins: "a UTF-16 byte-order mark", advice: "convert it to UTF-8 first (`iconv -f UTF-16 -t UTF-8`)")
        }
        let sample = head[start..<min(head.count, start + 64)]
        if sample.contains(0) || sample.filter({ $0 < 0x20 && $0 != ASCII.tab && $0 != ASCII.lf && $0 != ASCII.cr }).count > 2 {
            let hex = sample.prefix(8).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            return .notMbox(begins: "binary data (\(hex.joined(separator: " ")))",
                            advice: "give an mbox file (an archive or compressed file must be unpacked first)")
        }
        var end = start
        while end < head.count, end - start < 80, head[end] != ASCII.lf, head[end] != ASCII.cr { end += 1 }
        var name = start
        while name < end, head[name] > 0x20, head[name] < 0x7F, head[name] != ASCII.colon { name += 1 }
        if name > start, name < end, head[name] == ASCII.colon {
            // A header field's name: printable ASCII, safe as it is.
            return .notMbox(begins: "a header line (`\(String(decoding: head[start...name], as: UTF8.self))`), as a single message does",
                            advice: single)
        }
        return .notMbox(begins: "`\(TerminalText.line(String(decoding: head[start..<end], as: UTF8.self)))`", advice: single)
    }
}
