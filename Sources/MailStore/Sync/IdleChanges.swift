import IMAPProtocol
import SecureTransport

/// What a watch's IDLE on the Inbox heard, and whether it is time to leave the IDLE and sync (``SyncWatcher``).
///
/// An EXISTS that repeats the count the watch knows changes nothing and is not heard as a change: a server that sends
/// one again and again (each had ended the IDLE and synced the Inbox again: ~4% CPU and a busy server, for nothing)
/// costs no sync. So is a FETCH of flags the store already holds for that message (a server repeating one had cost an
/// Inbox sync every ``longest`` seconds, for ever): the message is found by the FETCH's UID, else by its sequence
/// number among the UIDs the store knows (``uids``, when they are the server's). Changes (another count, an EXPUNGE, a
/// VANISHED, a FETCH of other flags, of a message not known, or without flags) are gathered: the Inbox is synced once
/// the server has told no other change for ``quiet`` seconds, and at most ``longest`` seconds after the first change,
/// however many follow (a burst of deliveries or another client's flag changes is one sync, new mail never waits
/// longer than that).
struct IdleChanges {
    /// A change is synced once the server has told no other change for this long (seconds).
    static let quiet = 1.0
    /// A change is synced at most this long after the first change not yet synced (seconds).
    static let longest = 2.0
    /// The most UIDs remembered to tell a FETCH's message by its sequence number (``SequenceNumbers``: at most 8 bytes
    /// and a bit for 1.25 slots a UID, ~10.2 MiB). A bigger mailbox, or a server saying it grew past this, has its
    /// FETCHes without a UID heard as changes.
    static let rememberedUIDs = 1 << 20

    /// How many messages the server last said the mailbox holds; nil after a VANISHED (its UIDs are not counted).
    private(set) var count: UInt32?
    /// The mailbox's UIDs in sequence order (0: a message arrived during the IDLE, UID not known), while they are known
    /// to be the server's; nil when not (a VANISHED, a count that shrank without EXPUNGE, more than ``rememberedUIDs``).
    /// An EXPUNGE, an arrival, a look-up cost O(log n) each (a storm of EXPUNGEs is not quadratic).
    private(set) var sequence: SequenceNumbers?
    /// The UIDs of ``sequence`` in order (a copy: for tests).
    var uids: [UInt32]? { sequence?.uids }
    /// The flags the store holds for a UID (as ``SyncEngine/normalized(_:)`` keeps them), nil: none known.
    let storedFlags: (UInt32) -> [String]?
    /// When the first change not yet synced was heard (the monotonic clock's seconds).
    private(set) var firstChange: Double?
    /// When the last change was heard.
    private(set) var lastChange: Double?
    /// The monotonic clock (tests give another).
    let now: () -> Double

    /// Changes of a mailbox selected with `count` messages: `uids` its UIDs in order when the store knows them to be the
    /// server's, `storedFlags` the flags the store holds for a UID.
    init(count: UInt32, uids: [UInt32]? = nil, storedFlags: @escaping (UInt32) -> [String]? = { _ in nil },
         now: @escaping () -> Double = Deadline.now) {
        self.count = count
        self.sequence = uids.flatMap { $0.count == Int(count) && $0.count <= IdleChanges.rememberedUIDs ? SequenceNumbers($0) : nil }
        self.storedFlags = storedFlags
        self.now = now
    }

    /// Notes `response`; true when it is a change.
    @discardableResult
    mutating func heard(_ response: UntaggedResponse) -> Bool {
        switch response {
        case .exists(let n):
            guard n != count else { return false }
            if let known = sequence?.count, Int(n) > known, Int(n) <= IdleChanges.rememberedUIDs {
                sequence?.append(unknown: Int(n) - known)
            } else {
                sequence = nil
            }
            count = n
        case .expunge(let seq):
            count = count.map { $0 > 0 ? $0 - 1 : 0 }
            if let known = sequence?.count, seq >= 1, Int(seq) <= known {
                sequence?.remove(Int(seq))
            } else {
                sequence = nil
            }
        case .vanished:
            count = nil
            sequence = nil
        case .fetch(let seq, let attributes):
            if isUnchanged(seq: seq, attributes) { return false }
        default:
            return false
        }
        let t = now()
        if firstChange == nil { firstChange = t }
        lastChange = t
        return true
    }

    /// Whether a FETCH tells flags the store already holds for its message (by its UID, else its sequence number).
    private mutating func isUnchanged(seq: UInt32, _ attributes: [FetchAttribute]) -> Bool {
        guard let flags = attributes.flags else { return false }
        let uid: UInt32
        if let told = attributes.uid {
            uid = told
        } else if let known = sequence?.uid(at: Int(seq)), known != 0 {
            uid = known
        } else {
            return false
        }
        guard let stored = storedFlags(uid) else { return false }
        return Set(SyncEngine.normalized(flags)) == Set(stored)
    }

    /// Whether to leave the IDLE and sync: a change was heard, and the server told no other for ``quiet`` seconds since,
    /// or the first came ``longest`` seconds ago.
    var isDue: Bool {
        guard let firstChange, let lastChange else { return false }
        let t = now()
        return t - lastChange >= IdleChanges.quiet || t - firstChange >= IdleChanges.longest
    }
}
