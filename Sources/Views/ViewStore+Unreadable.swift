import EventLog
import EventModel

/// Events the views set aside because they did not decode (quarantined for every view, `*`). Two of their causes are not
/// damage: an event written by a newer mailstore (a schema this build does not read: the views lack its mail, and the
/// user is told to upgrade), and, seen by that newer build, views folded by an older one that could not read what this
/// one reads (they lack it too, and are rebuilt). The store format keeps both from happening (a build refuses a store
/// whose events it may not read, architecture.md "The store folder"); this is for logs that came by other ways.
extension ViewStore {
    /// The most quarantined events looked at when the views open: each costs one record read and decoded.
    static let unreadableLooked = 16

    /// What the first `unreadableLooked` events quarantined as undecodable are now.
    package struct Unreadable: Sendable {
        /// The first of them this build decodes (the views were folded without it), or nil.
        package var readNow: UInt64?
        /// The first of them a newer build wrote, with what its decoding said.
        package var firstNewer: (sequence: UInt64, what: String)?
    }

    /// The quarantined undecodable events, decoded again (the live views only; nil at a past point).
    package func unreadable() throws -> Unreadable? {
        guard pastPoint == nil else { return nil }
        var out = Unreadable()
        // A damaged page here is the views' damage, as any other read of them (`guarded`: rebuilt, never a failure).
        let set = try guarded { try quarantined(limit: 1_000) }.filter { $0.view == "*" }.prefix(ViewStore.unreadableLooked)
        for q in set {
            guard let event = try? log.event(at: q.sequence) else { continue }
            do {
                _ = try event.decode()
                out.readNow = out.readNow ?? q.sequence
            } catch {
                guard case .unsupportedVersion = error else { continue }
                if out.firstNewer == nil { out.firstNewer = (q.sequence, "\(error)") }
            }
        }
        return out
    }

    /// Why the views lack events this build reads (their quarantine holds an event it decodes: folded by an older build
    /// that could not), or nil.
    func foldedWithoutReadableEvents() throws -> String? {
        guard let seq = try unreadable()?.readNow else { return nil }
        return "the views were folded by a build that could not read event \(seq) (this one reads it): rebuilding them from the log"
    }

    /// The note for events a newer mailstore wrote that the views lack, or nil.
    package func newerEventsNote() throws -> String? {
        guard let u = try unreadable(), let first = u.firstNewer else { return nil }
        return "the log holds events written by a newer mailstore (the first, event \(first.sequence): \(first.what)); "
            + "this build cannot read them and what it shows lacks them: upgrade mailstore"
    }
}
