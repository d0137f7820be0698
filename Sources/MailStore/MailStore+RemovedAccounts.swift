import EventLog
import EventModel
import Projections
import Views

extension MailStore {
    /// The most account names ever configured that ``removedAccounts()`` reads: the stream index is read up to this
    /// many `account/NAME` streams (as the import's name check reads them, `EventLog.streamNames`' limit). Each is one
    /// `account add` of the user's, so a store has a handful; past this many, the names after it in byte order are
    /// not known to be removed and stay in the unified views.
    public static let maxAccountNamesRead = 10_000

    /// The accounts removed now: a name configured once (its `account/NAME` stream in the log holds its `AccountAdded`)
    /// whose stream's newest event at the log's head (for a store as of a past point, `asOf`, at that point) is its
    /// `AccountRemoved`. Mail imported without a server (`local`, or any `import --account` name) is never one: such a
    /// name has no account stream. Their mail stays in the log and the views, read by naming the account
    /// (`--account NAME`); every read across accounts (the unified inbox and folders, the badge over every account,
    /// `--unified`, a search without `--account`, the recent notifications of every account) leaves it out. An account
    /// added again is no longer removed; one added under another name leaves the old name removed, so its mail is not
    /// listed twice.
    ///
    /// Decided by the log, not the accounts view: views behind the log (not yet caught up with another process's
    /// `account add`, or a long-running process's) would have shown an account just added again as removed, its mail
    /// left out of every unified read until they caught up.
    ///
    /// Cost, once per read across accounts: two short read transactions of the log, no event decoded: the keys of the
    /// `account/` streams in its stream index (at most ``maxAccountNamesRead``), then each one's newest entry and its
    /// record's type.
    public func removedAccounts() throws -> Set<String> {
        let prefix = StreamName.account("").rawValue
        let once = try log.streamNames(prefix: prefix, limit: MailStore.maxAccountNamesRead)
        if once.isEmpty { return [] }
        var removed = Set<String>()
        for (stream, type) in zip(once, try log.newestTypes(of: once, through: snapshot?.sequence)) where type == .accountRemoved {
            removed.insert(String(stream.dropFirst(prefix.count)))
        }
        return removed
    }

    /// The accounts every read across accounts shows (`--unified`): those the views know mail of (configured or
    /// imported), sorted, but those removed now (``removedAccounts()``). An account removed is still read by name.
    public func unifiedAccountNames() throws -> [String] {
        let removed = try removedAccounts()
        let names = try views().accounts()
        return removed.isEmpty ? names : names.filter { !removed.contains($0) }
    }
}
