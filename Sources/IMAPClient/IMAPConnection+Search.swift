import IMAPProtocol

extension IMAPConnection {
    /// `UID SEARCH keys`: the matching UIDs, ascending. Uses `RETURN (ALL)` (ESEARCH) when advertised.
    public func uidSearch(_ keys: [SearchKey]) throws(IMAPClientError) -> [UInt32] {
        var uids: [UInt32] = []
        try run(.uidSearch(keys, returnOptions: has("ESEARCH") ? [.all] : nil), name: "UID SEARCH") { response in
            switch response {
            case .esearch(let result):
                if let all = result.all { uids.append(contentsOf: all.uids) }
                return true
            case .search(let numbers, _):
                uids.append(contentsOf: numbers)
                return true
            default:
                return false
            }
        }
        return uids.sorted()
    }
}
