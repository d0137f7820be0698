import EventLog
import EventModel
import Projections
import Views

extension MailStore {
    /// Adds an account: validates `settings` and commits `AccountAdded` (which carries no secret), with
    /// `AccountSettingsDiscovered` when its servers were looked up (registry, discovery or the cache) rather
    /// than given: where each came from, and the cache a later lookup of the domain reuses.
    @discardableResult
    public func addAccount(_ settings: AccountSettings) throws -> AccountAdded {
        let payload = try settings.validated()
        if try latestViews().account(named: payload.name) != nil { throw AccountError.exists(payload.name) }
        let stream = StreamName.account(payload.name)
        var events = [NewEvent(event: .accountAdded(payload), account: payload.name, stream: stream, actor: .user,
                               expectedVersion: try expectedVersion(of: stream))]
        if let found = settings.discoveryEvent(for: payload) {
            events.append(NewEvent(event: .accountSettingsDiscovered(found), account: payload.name, stream: stream, actor: .user))
        }
        try commit(events)
        return payload
    }

    /// Removes an account from the configuration (`AccountRemoved`); its mail stays in the log.
    public func removeAccount(named name: String) throws {
        guard try latestViews().account(named: name) != nil else { throw AccountError.notFound(name) }
        let stream = StreamName.account(name)
        try commit([NewEvent(event: .accountRemoved(AccountRemoved(name: name)), account: name, stream: stream,
                             actor: .user, expectedVersion: .exactly(try log.streamVersion(stream)))])
    }
}

extension MailStore {
    /// The four-step connection test of the account named `name` (nothing is recorded).
    public func testAccount(named name: String, budgetSeconds: Double = 10) throws -> ConnectionTest.Report {
        guard let account = try latestViews().account(named: name)?.settings else { throw AccountError.notFound(name) }
        return ConnectionTest(account: account, budgetSeconds: budgetSeconds).run()
    }
}
