/// Reads lines ending in CR alone (old Mac OS) as lines, as a file streams through: each CR not followed by LF
/// becomes LF; a CR LF stays as it is. The result does not depend on how the input is cut into chunks: a CR at a
/// chunk's end is held (one byte) until the next chunk or ``finish()`` says what follows it.
package struct LoneCRLineEnds: Sendable {
    /// A CR ended the last chunk.
    private var heldCR = false

    /// Creates a converter at the start of a file.
    package init() {}

    /// The bytes of `chunk` with lone CRs made LF (and a CR held from the last chunk before them).
    package mutating func convert(_ chunk: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(chunk.count + 1)
        if heldCR, !chunk.isEmpty {
            out.append(chunk[0] == ASCII.lf ? ASCII.cr : ASCII.lf)
            heldCR = false
        }
        let n = chunk.count
        for i in 0..<n {
            let b = chunk[i]
            guard b == ASCII.cr else {
                out.append(b)
                continue
            }
            if i + 1 < n {
                out.append(chunk[i + 1] == ASCII.lf ? ASCII.cr : ASCII.lf)
            } else {
                heldCR = true
            }
        }
        return out
    }

    /// The end of the file: a CR held is a line end.
    package mutating func finish() -> [UInt8] {
        defer { heldCR = false }
        return heldCR ? [ASCII.lf] : []
    }
}
