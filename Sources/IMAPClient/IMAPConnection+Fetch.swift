import IMAPProtocol

extension IMAPConnection {
    /// `UID FETCH set (items) [(CHANGEDSINCE n [VANISHED])]`, calling `each` for every FETCH
    /// response as it arrives (nothing is buffered beyond one response).
    ///
    /// `vanished` needs QRESYNC enabled and `changedSince`; the UIDs the server then reports
    /// expunged (`VANISHED (EARLIER)`) are returned. FETCH responses for UIDs outside `set`
    /// (changes made by other clients, or the last message that `n:*` names when `n` is above
    /// every UID) go to ``onUnsolicited``. When `each` throws, the rest of the responses are
    /// read (and not passed on) so the connection stays usable, then the error is rethrown.
    /// More than ``CommandLimits/maxCollected`` VANISHED ranges fail the command. A set longer than
    /// ``CommandLimits/maxSetBytes`` is fetched by one command per part, in ascending order.
    @discardableResult
    package func uidFetch(_ set: UIDSet, _ items: [FetchItem], changedSince: UInt64? = nil, vanished: Bool = false,
                         each: (FetchedMessage) throws -> Void) throws -> UIDSet {
        let parts = set.parts(maxWireBytes: limits.maxSetBytes)
        if parts.count > 1 {
            var gone = UIDSet()
            for part in parts { gone.formUnion(try uidFetch(part, items, changedSince: changedSince, vanished: vanished, each: each)) }
            return gone
        }
        var vanishedRanges: [UIDSet.Range] = []
        var callerError: (any Error)?
        try run(.uidFetch(set, items, changedSince: changedSince, vanished: vanished), name: "UID FETCH") { response throws(IMAPClientError) in
            switch response {
            case .vanished(earlier: true, let uids):
                vanishedRanges.append(contentsOf: uids.ranges)
                try self.checkCollected(vanishedRanges.count, "VANISHED ranges")
                return true
            case .fetch(let sequence, let attributes):
                guard let uid = attributes.uid, set.contains(uid) else { return false }
                guard callerError == nil else { return true }
                do {
                    try each(FetchedMessage(sequence: sequence, attributes: attributes))
                } catch {
                    callerError = error
                }
                return true
            default:
                return false
            }
        }
        if let callerError { throw callerError }
        return UIDSet(ranges: vanishedRanges)
    }
}
