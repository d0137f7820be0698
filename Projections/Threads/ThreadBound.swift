/// How much mail one thread holds before it is full.
///
/// A thread's record (`ThreadRecord`) is read and written whole, once per batch that changes the thread, and its
/// row is recomputed from every member, so a thread is bounded: a thread at either bound is full
/// (`ThreadRecord.hasRoom(_:)`) and mail linked to it goes on in another thread, as Gmail splits a conversation
/// past 100 messages. Without the bound a thread of 160,000 messages made a replay hold 383 MB and a look into its
/// past 1.2 GB, and one of 320,000 replayed in 96 s at 1 GB (each batch rewrote a record of megabytes).
package struct ThreadBound: Sendable, Equatable {
    /// The most email copies a thread holds.
    package var emails: Int
    /// The message keys' UTF-8 bytes a thread takes before it is full (one message adds at most
    /// `ViewBounds.maxLinkKeys` keys of at most `ViewBounds.maxIDBytes` each past it, ~125 KB).
    package var memberKeyBytes: Int

    /// Creates a bound (tests use small ones; every fold of one view must use the same).
    package init(emails: Int, memberKeyBytes: Int) {
        self.emails = emails
        self.memberKeyBytes = memberKeyBytes
    }

    /// The bound the threads view folds with: 10,000 copies (~20 bytes of record each; the row's recompute
    /// reads every member, ~1 KB at most each with its bounded fields: ~10 MB for a full thread) and 1 MiB of
    /// message keys (10,000 Message-IDs of ~80 bytes fit; a record of at most ~1.4 MB: a look into the past holds
    /// a version of it from each run of a window that changed it).
    package static let standard = ThreadBound(emails: 10_000, memberKeyBytes: 1 << 20)

    /// True when a thread of `emails` copies and `keyBytes` of keys takes more mail.
    package func hasRoom(emails count: Int, keyBytes: Int) -> Bool {
        count < emails && keyBytes < memberKeyBytes
    }
}
