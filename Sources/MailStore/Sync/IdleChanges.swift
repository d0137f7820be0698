import IMAPProtocol
import SecureTransport

/// What a watch's IDLE on the Inbox heard, and whether it is time to leave the IDLE and sync (``SyncWatcher``).
///
/// An EXISTS that repeats the count the watch knows changes nothing and is not heard as a change: a server that sends
/// one again and again (each had ended the IDLE and synced the Inbox again: ~4% CPU and a busy server, for nothing)
/// costs no sync. Changes (another count, an EXPUNGE, a VANISHED, a FETCH of flags) are gathered: the Inbox is synced
/// once the server has told no other change for ``quiet`` seconds, and at most ``longest`` seconds after the first
/// change, however many follow (a burst of deliveries or another client's flag changes is one sync, new mail never
/// waits longer than that).
struct IdleChanges {
    /// A change is synced once the server has told no other change for this long (seconds).
    static let quiet = 1.0
    /// A change is synced at most this long after the first change not yet synced (seconds).
    static let longest = 2.0

    /// How many messages the server last said the mailbox holds; nil after a VANISHED (its UIDs are not counted).
    private(set) var count: UInt32?
    /// When the first change not yet synced was heard (the monotonic clock's seconds).
    private(set) var firstChange: Double?
    /// When the last change was heard.
    private(set) var lastChange: Double?
    /// The monotonic clock (tests give another).
    let now: () -> Double

    /// Changes of a mailbox selected with `count` messages.
    init(count: UInt32, now: @escaping () -> Double = Deadline.now) {
        self.count = count
        self.now = now
    }

    /// Notes `response`; true when it is a change.
    @discardableResult
    mutating func heard(_ response: UntaggedResponse) -> Bool {
        switch response {
        case .exists(let n):
            guard n != count else { return false }
            count = n
        case .expunge:
            count = count.map { $0 > 0 ? $0 - 1 : 0 }
        case .vanished:
            count = nil
        case .fetch:
            break
        default:
            return false
        }
        let t = now()
        if firstChange == nil { firstChange = t }
        lastChange = t
        return true
    }

    /// Whether to leave the IDLE and sync: a change was heard, and the server told no other for ``quiet`` seconds since,
    /// or the first came ``longest`` seconds ago.
    var isDue: Bool {
        guard let firstChange, let lastChange else { return false }
        let t = now()
        return t - lastChange >= IdleChanges.quiet || t - firstChange >= IdleChanges.longest
    }
}
