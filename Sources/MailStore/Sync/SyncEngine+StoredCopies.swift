import EventModel
import IMAPClient
import IMAPProtocol
import MailParser
import Projections
import Views

extension SyncEngine {
    /// A new copy in a Gmail label folder of a message the store holds already (in INBOX or under another label): what
    /// the server says of this copy, and the stored copy's blob, whose bytes are read from the store in place of
    /// fetching the body again (``storedCopies(_:_:)``).
    struct StoredCopy {
        var flags: [String]
        var internalDate: Int64?
        var gmailThreadID: UInt64?
        var gmailMessageID: UInt64
        var blob: BlobHash
    }

    /// At most this many of the copies the views hold under a Message-ID are read to find the one of an X-GM-MSGID
    /// (a Message-ID is a sender's to choose: a thousand messages may share one).
    static let storedCopyCandidates = 16

    /// How many new UIDs of a folder ``fetchNew(_:sizes:folder:validity:generation:_:commit:)`` looks up at a time
    /// (``storedCopies(_:_:)``), their stored copies read and committed before the next slice is asked: 8 fetch
    /// batches (`--batch-messages`, 500: 4,000 UIDs, their answers and copies ~1 MB), so what the lookup holds is
    /// bounded by the slice, not by the folder (~200 bytes a copy found: ~200 MB for a 1M-message All Mail at once).
    var storedCopySlice: Int { max(1, options.batchMessages) * 8 }

    /// Gmail: of `uids` (new in the selected label folder, INBOX included), those whose message the store holds
    /// already in another folder, with what records them against the stored blob. On Gmail a folder is a label: a
    /// message in INBOX and under two labels is three copies, each with a UID of its own, and each had been fetched
    /// whole. X-GM-MSGID, Gmail's id of the message, is the same for all of them.
    ///
    /// Asked in batches of ``SyncOptions/batchMessages``: `UID FETCH (UID FLAGS INTERNALDATE X-GM-THRID X-GM-MSGID
    /// BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])`. Each answer's Message-ID finds the copies the views hold
    /// (`copies(account:messageID:)`, at most ``storedCopyCandidates`` of them read, each X-GM-MSGID looked up once a
    /// call), and one whose `EmailReceived` records the same X-GM-MSGID (schema 3) gives its blob. A copy recorded
    /// before X-GM-MSGID was (schema 2), one without a Message-ID, a UID not asked for and an answer without X-GM-MSGID
    /// are left out: fetched whole, as before. Nothing on another server, or without X-GM-EXT-1.
    func storedCopies(_ uids: [UInt32], _ conn: IMAPConnection) throws -> [UInt32: StoredCopy] {
        guard provider.hasGmailExtensions, conn.has("X-GM-EXT-1"), !uids.isEmpty else { return [:] }
        let views = try self.views
        var out: [UInt32: StoredCopy] = [:]
        // Per X-GM-MSGID met in this call, the blob of its stored copy, or nil: at most one entry per UID asked.
        var looked: [UInt64: BlobHash?] = [:]
        var start = 0
        while start < uids.count {
            let batch = Array(uids[start..<min(uids.count, start + max(1, options.batchMessages))])
            start += batch.count
            // A UID answered twice, or not asked for, is taken at most once: at most `batchMessages` answers held.
            var asked = Set(batch)
            var answers: [(uid: UInt32, flags: [String], date: Int64?, thread: UInt64?, id: UInt64, messageID: String)] = []
            do {
                try conn.uidFetch(UIDSet(batch), [.uid, .flags, .internalDate, .gmailThreadID, .gmailMessageID,
                                                  .body(.headerFields(["MESSAGE-ID"]), peek: true)]) { msg in
                    guard let uid = msg.uid, asked.remove(uid) != nil, let id = msg.gmailMessageID,
                          let header = msg.section("HEADER.FIELDS (MESSAGE-ID)"),
                          let messageID = MailParser.parse(header).messageID, !messageID.isEmpty else { return }
                    answers.append((uid, SyncEngine.normalized(msg.flags ?? []), msg.internalDate, msg.gmailThreadID, id, messageID))
                }
            } catch let e as IMAPClientError {
                throw SyncError.server(e)
            }
            for a in answers where out[a.uid] == nil {
                let blob: BlobHash?
                if let known = looked[a.id] {
                    blob = known
                } else {
                    blob = try storedBlob(of: a.id, messageID: a.messageID, views)
                    looked[a.id] = blob
                }
                guard let blob else { continue }
                out[a.uid] = StoredCopy(flags: a.flags, internalDate: a.date, gmailThreadID: a.thread, gmailMessageID: a.id, blob: blob)
            }
        }
        return out
    }

    /// The blob of the copy the views hold of the message with X-GM-MSGID `id` and Message-ID `messageID`, nil when
    /// none of the first ``storedCopyCandidates`` copies under that Message-ID records that X-GM-MSGID.
    private func storedBlob(of id: UInt64, messageID: String, _ views: ViewStore) throws -> BlobHash? {
        for copy in try views.copies(account: account.name, messageID: ViewBounds.id(messageID)).prefix(SyncEngine.storedCopyCandidates) {
            guard let at = try views.syncedCopy(account: account.name, emailID: copy.emailID),
                  let stored = try store.log.event(at: at.copy.sequence), case .emailReceived(let p) = try stored.decode(),
                  p.gmailMessageID == id else { continue }
            return p.blob
        }
        return nil
    }
}
