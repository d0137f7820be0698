import EventLog
import EventModel
import Projections
import Views

extension MailStore {
    /// The most account names ever configured that ``removedAccounts(in:)`` reads: the stream index is read up to this
    /// many `account/NAME` streams (as the import's name check reads them, `EventLog.streamNames`' limit). Each is one
    /// `account add` of the user's, so a store has a handful; past this many, the names after it in byte order are
    /// not known to be removed and stay in the unified views.
    public static let maxAccountNamesRead = 10_000

    /// The accounts removed now, as `views` see them: a name configured once (its `account/NAME` stream in the log holds
    /// its `AccountAdded`) that the accounts view, the fold of each name's latest `AccountAdded` / `AccountRemoved`, no
    /// longer lists. Mail imported without a server (`local`, or any `import --account` name) is never one: such a name
    /// has no account stream. Their mail stays in the log and the views, read by naming the account (`--account NAME`);
    /// every read across accounts (the unified inbox and folders, the badge over every account, `--unified`, a search
    /// without `--account`, the recent notifications of every account) leaves it out. An account added again is no
    /// longer removed; one added under another name leaves the old name removed, so its mail is not listed twice.
    ///
    /// Cost, once per read across accounts: one read of the accounts view (its records, one per configured account)
    /// and one of the log's stream index (the keys of the `account/` streams, at most ``maxAccountNamesRead``), each a
    /// short read transaction; no event is decoded. For views as of a past point (`asOf`), the accounts view is the
    /// past one: a name configured only later has no mail then, so leaving it out changes nothing.
    public func removedAccounts(in views: ViewStore) throws -> Set<String> {
        let prefix = StreamName.account("").rawValue
        let once = try log.streamNames(prefix: prefix, limit: MailStore.maxAccountNamesRead)
        if once.isEmpty { return [] }
        let configured = Set(try views.accountList().map(\.settings.name))
        var removed = Set<String>()
        for stream in once {
            let name = String(stream.dropFirst(prefix.count))
            if !configured.contains(name) { removed.insert(name) }
        }
        return removed
    }

    /// The accounts removed now, as this store's views see them (``removedAccounts(in:)``).
    public func removedAccounts() throws -> Set<String> {
        try removedAccounts(in: views())
    }

    /// The accounts every read across accounts shows (`--unified`): those the views know mail of (configured or
    /// imported), sorted, but those removed now (``removedAccounts(in:)``). An account removed is still read by name.
    public func unifiedAccountNames() throws -> [String] {
        let views = try views()
        let removed = try removedAccounts(in: views)
        let names = try views.accounts()
        return removed.isEmpty ? names : names.filter { !removed.contains($0) }
    }
}
