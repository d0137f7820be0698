import Foundation
import SecureTransport

/// The folders a watch found refused by the server (``FolderSyncFailure``), each tried again with a bounded backoff and
/// its refusal told sparingly: a folder that stays unreadable (IMAP ACL `l` without `r`) neither slows every poll nor
/// fills the terminal. The first refusal is told and the folder tried again at the next round (a one-off refusal costs
/// nothing more); from the second on in a row, the next try waits ``firstWait`` doubling up to ``maxWait``, and the
/// refusal is told again at most every ``tellEvery``. A folder synced again is forgotten (and that told, once a refusal
/// was). Used on the watch's thread only (its engines' syncs and the IDLE's ticks run there).
final class FolderRetry {
    /// One refused folder.
    struct Entry: Equatable {
        /// Refusals in a row.
        var refusals: Int
        /// Not tried before this time (the monotonic clock's).
        var retryAt: Double
        /// When the refusal was last told (the monotonic clock's).
        var toldAt: Double
        /// When the first refusal in a row came (the wall clock's: it is told).
        var since: Date
    }

    /// What to do about one refusal.
    struct Refusal: Equatable {
        /// Whether to tell it (the first, then at most every ``FolderRetry/tellEvery``).
        var tell: Bool
        /// Refusals in a row, this one included.
        var refusals: Int
        /// Seconds before the folder is tried again (0: at the next round).
        var retryIn: Double
        /// When the first refusal in a row came.
        var since: Date
    }

    /// The wait after the second refusal in a row (seconds), doubled for each one after it.
    let firstWait: Double
    /// The longest wait between two tries (seconds).
    let maxWait: Double
    /// The least time between two tellings of the same folder's refusal (seconds).
    let tellEvery: Double
    /// The clock the waits are measured on (tests set another): the monotonic one, so a wall clock stepped back holds no
    /// folder back for as long (it had).
    var now: () -> Double = Deadline.now
    /// The wall clock, for when a refusal began (told, never waited on).
    var wallNow: () -> Date = Date.init
    private(set) var entries: [String: Entry] = [:]

    /// A tracker waiting `firstWait` doubling to `maxWait` between tries, telling at most every `tellEvery` seconds.
    init(firstWait: Double = 60, maxWait: Double = 3_600, tellEvery: Double = 3_600) {
        self.firstWait = firstWait
        self.maxWait = maxWait
        self.tellEvery = tellEvery
    }

    /// Whether `folder` is to be tried in this round (not refused, or its wait is over).
    func isDue(_ folder: String) -> Bool {
        guard let e = entries[folder] else { return true }
        return now() >= e.retryAt
    }

    /// Records a refusal of `folder` and says whether to tell it and when the folder is tried again.
    func refused(_ folder: String) -> Refusal {
        let t = now()
        guard var e = entries[folder] else {
            let since = wallNow()
            entries[folder] = Entry(refusals: 1, retryAt: t, toldAt: t, since: since)
            return Refusal(tell: true, refusals: 1, retryIn: 0, since: since)
        }
        e.refusals += 1
        let wait = min(maxWait, firstWait * pow(2, Double(min(e.refusals - 2, 30))))
        e.retryAt = t + wait
        let tell = t - e.toldAt >= tellEvery
        if tell { e.toldAt = t }
        entries[folder] = e
        return Refusal(tell: tell, refusals: e.refusals, retryIn: wait, since: e.since)
    }

    /// Records that `folder` synced; true when it had been refused (its refusal told), to tell it synced again.
    func synced(_ folder: String) -> Bool {
        entries.removeValue(forKey: folder) != nil
    }

    /// Forgets every folder but `listed` (those the server no longer lists: deleted, renamed).
    func keep(only listed: Set<String>) {
        entries = entries.filter { listed.contains($0.key) }
    }
}
