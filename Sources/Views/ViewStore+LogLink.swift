import EventLog
import LMDB

/// The views' link to the log they were folded from: the last event folded and its chain hash, written with every
/// batch. Views whose link the log does not have are not this log's views: a log restored from a backup (the views
/// are folded past its end, or past where it went another way since), or a views folder copied from another store.
/// Served, they answered with mail the log never had, and an action on it appended events about emails the log never
/// held; so they are rebuilt instead.
extension ViewStore {
    /// The meta key of the link: the sequence (8 bytes, big-endian) and the chain hash of the last event folded.
    static let logLinkKey = Array("log-link".utf8)

    /// The link to write after folding through `sequence`, or nil when the log has no such event.
    func logLink(through sequence: UInt64) throws -> [UInt8]? {
        guard let hash = try log.chainHash(at: sequence) else { return nil }
        return withUnsafeBytes(of: sequence.bigEndian) { Array($0) } + hash
    }

    /// Why these views are not the log's (what the user is told before they are rebuilt), or nil when they are: the
    /// link's event missing from the log or another there; without a link (views written before it was kept), a view's
    /// checkpoint past the log's head; folded without events this build reads (`foldedWithoutReadableEvents`).
    package func logMismatch() throws -> String? {
        guard pastPoint == nil else { return nil }
        if let why = try linkMismatch() { return why }
        return try foldedWithoutReadableEvents()
    }

    private func linkMismatch() throws -> String? {
        let head = try log.head().sequence
        let link = try guarded { try environment.read { txn in try txn.getBytes(meta, key: ViewStore.logLinkKey) } }
        if let link, link.count > 8 {
            let sequence = link.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard let hash = try log.chainHash(at: sequence) else {
                return "the views are folded through event \(sequence), past the log's end (\(head)): a log restored from a backup, "
                    + "or views of another store; rebuilding them from the log"
            }
            guard hash.elementsEqual(link.dropFirst(8)) else {
                return "the views were folded from another log (its event \(sequence) is not this log's): a log restored from a "
                    + "backup, or views of another store; rebuilding them from the log"
            }
            return nil
        }
        let most = try checkpoints().values.max() ?? 0
        guard most <= head else {
            return "the views are folded through event \(most), past the log's end (\(head)): a log restored from a backup, "
                + "or views of another store; rebuilding them from the log"
        }
        return nil
    }
}
