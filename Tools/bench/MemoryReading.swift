/// One line of `machine-probe`'s output, "write W cold C warm H mib N" (µs per 4 KiB page, and the MiB probed),
/// with each figure checked: anything else is no reading.
struct MemoryReading: Equatable {
    /// µs per page to write a new file's pages into the page cache.
    let write: String
    /// µs per page for the first touch of memory free a while.
    let cold: String
    /// µs per page for memory freed moments ago.
    let warm: String
    /// The MiB probed.
    let mib: Int

    init?(_ output: String) {
        let words = output.split(whereSeparator: \.isWhitespace)
        guard words.count == 8, words[0] == "write", words[2] == "cold", words[4] == "warm", words[6] == "mib",
              let mib = Int(words[7]), (1...4096).contains(mib) else { return nil }
        // Figures as the probe printed them (two decimals), once each is known to be a number of µs.
        func figure(_ word: Substring) -> String? {
            guard word.count <= 12, let value = Double(word), value.isFinite, value >= 0 else { return nil }
            return String(word)
        }
        guard let write = figure(words[1]), let cold = figure(words[3]), let warm = figure(words[5]) else { return nil }
        (self.write, self.cold, self.warm, self.mib) = (write, cold, warm, mib)
    }
}
