/// File names kept as one byte buffer and an offset each, instead of a `String` per name: a folder of a
/// million Maildir files lists in ~70 MB rather than ~300.
struct PackedNames {
    private var bytes: [UInt8] = []
    private var ends: [UInt32] = []

    /// The number of names.
    var count: Int { ends.count }
    /// The bytes of all names.
    var byteCount: Int { bytes.count }

    /// Adds a name (a file name: at most 255 bytes). The caller keeps the buffer under 4 GiB (the Maildir
    /// reader refuses a folder past `Importer.Options.maxFolderNameBytes`, 1 GiB by default).
    mutating func append<C: Collection>(_ name: C) where C.Element == UInt8 {
        bytes.append(contentsOf: name)
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
    }

    /// How many names do not begin with a dot (a Maildir's `cur/` and `new/` hold messages under those).
    func countMessages() -> Int {
        (0..<count).reduce(0) { n, i in n + (bytes[span(i)].first == UInt8(ascii: ".") ? 0 : 1) }
    }

    /// The bytes of name `i`.
    private func span(_ i: Int) -> Range<Int> { (i == 0 ? 0 : Int(ends[i - 1]))..<Int(ends[i]) }

    /// Name `i` (a file name that is not UTF-8 is decoded with replacement characters: shown so, and opened by its
    /// bytes, `withCName`).
    subscript(i: Int) -> String { String(decoding: bytes[span(i)], as: UTF8.self) }

    /// Whether name `i` is UTF-8 (a `String` of it names the file).
    func isUTF8(_ i: Int) -> Bool { String(validating: bytes[span(i)], as: UTF8.self) != nil }

    /// Calls `body` with name `i` as the bytes it has on disk, NUL-terminated: for `openat` and `fstatat`, which
    /// then find a file whose name is not UTF-8.
    func withCName<R>(_ i: Int, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var c = Array(bytes[span(i)])
        c.append(0)
        return try c.withUnsafeBufferPointer { try $0.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) } }
    }

    /// The indices of the names in byte order (the order `ls` gives in the C locale).
    func sortedIndices() -> [Int] {
        bytes.withUnsafeBufferPointer { b in
            (0..<count).sorted { x, y in
                let a = span(x), c = span(y)
                return b[a].lexicographicallyPrecedes(b[c])
            }
        }
    }
}
