import IMAPProtocol

extension IMAPConnection {
    /// `UID STORE set [(UNCHANGEDSINCE n)] +FLAGS.SILENT|-FLAGS.SILENT (flags)`: adds or removes
    /// flags, never replaces the whole set.
    ///
    /// Returns the messages left unchanged because they changed after `unchangedSince`
    /// (`MODIFIED`), and the flags and mod-sequences the server sent back for messages in `set`. A set longer
    /// than ``CommandLimits/maxSetBytes`` is stored by one command per part, their results merged.
    package func uidStore(_ set: UIDSet, _ operation: StoreOperation, flags: [String],
                         unchangedSince: UInt64? = nil) throws(IMAPClientError) -> StoreResult {
        let parts = set.parts(maxWireBytes: limits.maxSetBytes)
        if parts.count > 1 {
            var merged = StoreResult()
            for part in parts {
                let r = try uidStore(part, operation, flags: flags, unchangedSince: unchangedSince)
                merged.modified.formUnion(r.modified)
                merged.flags.merge(r.flags) { _, new in new }
                merged.modSeqs.merge(r.modSeqs) { _, new in new }
                try checkCollected(max(merged.flags.count, merged.modSeqs.count))
            }
            return merged
        }
        var result = StoreResult()
        let completion = try run(.uidStore(set, operation, flags: flags, unchangedSince: unchangedSince, silent: true),
                                 name: "UID STORE") { response throws(IMAPClientError) in
            guard case .fetch(_, let attributes) = response, let uid = attributes.uid, set.contains(uid) else { return false }
            if let flags = attributes.flags { result.flags[uid] = flags }
            if let modSeq = attributes.modSeq { result.modSeqs[uid] = modSeq }
            try self.checkCollected(max(result.flags.count, result.modSeqs.count))
            return true
        }
        if case .modified(let modified)? = completion.code { result.modified = modified }
        return result
    }
}
