import Foundation

/// A progress bar on stderr (count, rate, ETA), drawn only when stderr is a terminal and not quiet. Its times are on the
/// monotonic clock (`ContinuousClock`): a wall clock stepped back had stopped its redraws for as long.
final class ProgressBar {
    private var label: String
    private var total: UInt64?
    private let enabled: Bool
    private var start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?

    init(_ label: String, total: UInt64?, quiet: Bool = false) {
        self.label = label
        self.total = total
        enabled = !quiet && Terminal.stderrIsTTY
    }

    /// Changes the label (e.g. to the folder being synced); the rate restarts with it.
    func relabel(_ newLabel: String) {
        guard newLabel != label else { return }
        label = newLabel
        start = ContinuousClock.now
    }

    /// Updates the bar (redrawn at most ten times a second).
    func update(_ done: UInt64, total newTotal: UInt64? = nil, force: Bool = false) {
        guard enabled else { return }
        if let newTotal { total = newTotal }
        let now = ContinuousClock.now
        guard force || lastDraw.map({ ProgressBar.seconds(now - $0) >= 0.1 }) ?? true else { return }
        lastDraw = now
        let elapsed = max(ProgressBar.seconds(now - start), 0.001)
        let rate = Double(done) / elapsed
        var line = "\r\(label) \(done)"
        if let total, total > 0 {
            let frac = min(1, Double(done) / Double(total))
            let width = 24
            let filled = Int(frac * Double(width))
            line += "/\(total) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
            line += String(format: " %3.0f%%", frac * 100)
            if rate > 0, done < total { line += String(format: " ETA %.0fs", Double(total - done) / rate) }
        }
        line += String(format: " %.0f/s", rate)
        StandardStream.err(Data((line + "\u{1B}[K").utf8))
    }

    /// A duration in seconds.
    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// Clears the bar.
    func finish() {
        guard enabled else { return }
        StandardStream.err(Data("\r\u{1B}[K".utf8))
    }
}
