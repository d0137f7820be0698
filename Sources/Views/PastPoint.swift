/// Where a `ViewStore` of views at a past point stands (`ViewStore.past(at:)`): the point, the history window read
/// under it, and what the events between that window's end and the point wrote, held in memory.
final class PastPoint: @unchecked Sendable {  // filled by the fold that makes it, then only read
    /// The sequence the views stand at.
    let sequence: UInt64
    /// The window of the history read (0: none, the views empty) and the sequence it ends at.
    let window: ViewHistory.Window
    /// The writes of the events after the window's end, per table (one store per view, shared by its tables).
    var held: [String: WriteBehind] = [:]
    /// Events a view could not fold after the window's end (each fold of such a point finds them again).
    var quarantined: [QuarantinedEvent] = []
    /// The events scouts folded ahead of the fold (`PastPrefetch`), thrown away: 0 when none ran.
    var scoutedEvents: UInt64 = 0

    init(sequence: UInt64, window: ViewHistory.Window) {
        self.sequence = sequence
        self.window = window
    }
}
