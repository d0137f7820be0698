/// What threading weighs of a thread a new message links to: its id, age and size (`ThreadBound`), without its
/// record's lists.
struct ThreadSize {
    let id: String
    /// The sequence of the event that created it (the oldest thread wins a merge).
    let first: UInt64
    let emails: Int
    let keyBytes: Int

    init(_ t: ThreadRecord) {
        id = t.id
        first = t.firstSequence
        emails = t.emailIDs.count
        keyBytes = t.memberKeyBytes
    }
}
