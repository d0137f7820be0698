/// An event a view could not fold (a bug in its projector, or an event its build cannot decode): kept
/// aside with its error so catch-up goes on; `replay` tries it again.
public struct QuarantinedEvent: Sendable, Equatable, CustomStringConvertible {
    /// The event's log sequence.
    public var sequence: UInt64
    /// The view that failed (`*` when the event could not be decoded at all).
    public var view: String
    /// What failed (at most `maxErrorBytes` bytes).
    public var error: String

    /// The most bytes of an error kept.
    public static let maxErrorBytes = 1_000

    public var description: String { "event \(sequence) quarantined by view \(view): \(error)" }

    /// Its key in the quarantine table: the sequence (8 bytes, big-endian), then the view's name.
    package var key: [UInt8] {
        var k: [UInt8] = []
        for i in (0..<8).reversed() { k.append(UInt8(truncatingIfNeeded: sequence >> (UInt64(i) * 8))) }
        k.append(contentsOf: view.utf8.prefix(64))
        return k
    }

    /// An entry for `sequence` and `view`, the error cut to `maxErrorBytes`.
    package init(sequence: UInt64, view: String, error: String) {
        self.sequence = sequence
        self.view = view
        self.error = String(decoding: error.utf8.prefix(QuarantinedEvent.maxErrorBytes), as: UTF8.self)
    }

    init?(key: [UInt8], value: [UInt8]) {
        guard key.count >= 8 else { return nil }
        sequence = key.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        view = String(decoding: key.dropFirst(8), as: UTF8.self)
        error = String(decoding: value, as: UTF8.self)
    }
}
