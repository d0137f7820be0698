import IMAPProtocol

/// What the untagged responses to SELECT or EXAMINE reported so far.
struct SelectState {
    var uidValidity: UInt32?
    var uidNext: UInt32?
    var highestModSeq: UInt64?
    var noModSeq = false
    var exists: UInt32?
    var flags: [String] = []
    var permanentFlags: [String]?
    /// The ranges of `VANISHED (EARLIER)`, made one set at the end (not merged response by response).
    var vanishedRanges: [UIDSet.Range] = []
    var changed: [FetchedMessage] = []

    /// Takes what `response` reports; false for responses SELECT does not produce.
    mutating func take(_ response: UntaggedResponse) -> Bool {
        switch response {
        case .flags(let list): flags = list
        case .exists(let count): exists = count
        case .recent: break
        case .vanished(earlier: true, let uids): vanishedRanges.append(contentsOf: uids.ranges)
        case .fetch(let sequence, let attributes): changed.append(FetchedMessage(sequence: sequence, attributes: attributes))
        case .condition(.ok, let code?, _): return take(code)
        default: return false
        }
        return true
    }

    private mutating func take(_ code: ResponseCode) -> Bool {
        switch code {
        case .uidValidity(let value): uidValidity = value
        case .uidNext(let value): uidNext = value
        case .highestModSeq(let value): highestModSeq = value
        case .noModSeq: noModSeq = true
        case .permanentFlags(let list): permanentFlags = list
        case .unseen, .closed: break
        default: return false
        }
        return true
    }
}
