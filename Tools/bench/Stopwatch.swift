import Foundation

/// Monotonic timing helpers.
enum Stopwatch {
    /// Nanoseconds on the monotonic clock.
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Seconds taken by `body`.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let t = now()
        try body()
        return Double(now() - t) / 1e9
    }

    /// The `p`-th percentile (0...100) of `samples` (nanoseconds), in microseconds.
    static func percentile(_ samples: [UInt64], _ p: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let idx = min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)
        return Double(sorted[max(0, idx)]) / 1000
    }
}

/// Number formatting for the report.
enum Fmt {
    static func int(_ v: Double) -> String {
        let n = Int(v.rounded())
        let s = String(n)
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    static func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
}
