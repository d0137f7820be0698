/// The seconds one round of the log suite took for each measure (mailstore and raw LMDB, same bytes).
struct LogRound {
    var append = 0.0, bulk = 0.0, rawAppend = 0.0, rawBulk = 0.0
    var scan = 0.0, envelopes = 0.0, rawScan = 0.0

    /// The median of `values` (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
