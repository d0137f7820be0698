import IMAPProtocol

extension IMAPConnection {
    /// `UID SEARCH keys`: the matching UIDs, ascending, each once. Uses `RETURN (ALL)` (ESEARCH)
    /// when advertised.
    ///
    /// The result is bounded before it is expanded. UIDs are taken as the server lists them while they number no
    /// more than the messages it says the mailbox holds (EXISTS, as last reported): a UIDNEXT reported stale (below
    /// UIDs the server lists) drops none of them, so a sync never takes mail still listed for expunged. A result
    /// claiming more UIDs than that (`ALL 1:4294967295` in 40 bytes) is clamped below the UIDNEXT the last SELECT
    /// reported (mail that arrived since is found by the next search), and more than
    /// ``CommandLimits/maxSearchResults`` UIDs fail the command with
    /// ``IMAPClientError/responseLimitExceeded(command:limit:)``, so the 40 bytes cost nothing.
    package func uidSearch(_ keys: [SearchKey]) throws(IMAPClientError) -> [UInt32] {
        let largest = selectedUIDNext.map { $0 > 0 ? $0 - 1 : 0 } ?? UInt32.max
        let cap = limits.maxSearchResults
        var uids: [UInt32] = []
        try run(.uidSearch(keys, returnOptions: has("ESEARCH") ? [.all] : nil), name: "UID SEARCH") { response throws(IMAPClientError) in
            switch response {
            case .esearch(let result):
                guard let listed = result.all else { return true }
                // (A set with `*` has no count: clamped, its `*` read as the largest UID there can be.)
                let all = (listed.count ?? Int.max) <= Int(self.selectedExists) - uids.count ? listed : listed.clamped(to: largest)
                try self.checkCollected(uids.count + (all.count ?? Int.max), limit: cap, "UIDs")
                uids.append(contentsOf: all.uids)
                return true
            case .search(let numbers, _):
                let listed = numbers.filter { $0 >= 1 }
                let kept = listed.count <= Int(self.selectedExists) - uids.count ? listed : listed.filter { $0 <= largest }
                try self.checkCollected(uids.count + kept.count, limit: cap, "UIDs")
                uids.append(contentsOf: kept)
                return true
            default:
                return false
            }
        }
        uids.sort()
        var unique: [UInt32] = []
        unique.reserveCapacity(uids.count)
        for uid in uids where unique.last != uid { unique.append(uid) }
        return unique
    }
}
