import IMAPProtocol

extension IMAPConnection {
    /// `UID SEARCH keys`: the matching UIDs, ascending, each once. Uses `RETURN (ALL)` (ESEARCH)
    /// when advertised.
    ///
    /// The result is clamped before it is expanded: UIDs at or above the UIDNEXT the last SELECT
    /// reported are dropped (mail that arrived since is found by the next search), and more than
    /// ``CommandLimits/maxSearchResults`` UIDs fail the command with
    /// ``IMAPClientError/responseLimitExceeded(command:limit:)``, so `ALL 1:4294967295` in 40 bytes
    /// costs nothing.
    package func uidSearch(_ keys: [SearchKey]) throws(IMAPClientError) -> [UInt32] {
        let largest = selectedUIDNext.map { $0 > 0 ? $0 - 1 : 0 } ?? UInt32.max
        let cap = limits.maxSearchResults
        var uids: [UInt32] = []
        try run(.uidSearch(keys, returnOptions: has("ESEARCH") ? [.all] : nil), name: "UID SEARCH") { response throws(IMAPClientError) in
            switch response {
            case .esearch(let result):
                guard let all = result.all?.clamped(to: largest) else { return true }
                try self.checkCollected(uids.count + (all.count ?? Int.max), limit: cap, "UIDs")
                uids.append(contentsOf: all.uids)
                return true
            case .search(let numbers, _):
                let kept = numbers.filter { $0 >= 1 && $0 <= largest }
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
