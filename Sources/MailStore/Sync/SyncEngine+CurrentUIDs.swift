import EventModel
import IMAPClient
import IMAPProtocol
import MailParser
import Projections

extension SyncEngine {
    /// The UIDs write-back may send for copies of the folder `folder`, just selected with UIDVALIDITY `validity`.
    ///
    /// A copy recorded under that UIDVALIDITY keeps its UID. One recorded under another (another client deleted and
    /// recreated the folder, or the server renumbered it, after the last sync) is never sent by its old UID: RFC 3501
    /// voids every UID of the old value, and the same number may now name another message. It is found again by
    /// Message-ID and size the way the folder's re-match will find it (`rematch`: the n-th old copy with that
    /// Message-ID and size, in UID order, is the n-th such message on the server, in UID order), so the action and
    /// the re-match agree on which message is this copy. A copy not found that way (or without a Message-ID) is
    /// returned in `gone`: it is no longer in this folder, as if expunged or moved.
    func current(_ group: [(target: ActionTarget, copy: SyncedCopy)], in folder: String, validity: UInt32,
                 _ conn: IMAPConnection) throws -> (here: [(target: ActionTarget, uid: UInt32)], gone: [ActionTarget]) {
        var here: [(target: ActionTarget, uid: UInt32)] = []
        var gone: [ActionTarget] = []
        let stale = group.filter { $0.copy.uidValidity != validity }
        for g in group where g.copy.uidValidity == validity { here.append((g.target, g.copy.uid)) }
        guard !stale.isEmpty else { return (here, gone) }
        let known = Array(try views.syncedCopies(account: account.name, folder: folder).values)
        for g in stale {
            guard let messageID = g.copy.messageID else {
                gone.append(g.target)
                continue
            }
            let rank = known.count { c in
                c.uidValidity == g.copy.uidValidity && c.messageID == messageID && c.size == g.copy.size && c.uid < g.copy.uid
            }
            var matches: [UInt32] = []
            let candidates = try conn.uidSearch([.header("Message-ID", messageID)])
            if !candidates.isEmpty {
                try conn.uidFetch(UIDSet(candidates), [.uid, .rfc822Size, .body(.headerFields(["MESSAGE-ID"]), peek: true)]) { msg in
                    guard let uid = msg.uid, msg.size == g.copy.size, let header = msg.section("HEADER.FIELDS (MESSAGE-ID)"),
                          MailParser.parse(header).messageID == messageID else { return }
                    matches.append(uid)
                }
            }
            matches.sort()
            if rank < matches.count { here.append((g.target, matches[rank])) } else { gone.append(g.target) }
        }
        return (here, gone)
    }
}
