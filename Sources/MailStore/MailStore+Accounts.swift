import EventLog
import EventModel
import Projections
import Views

extension MailStore {
    /// Adds an account: validates `settings` and appends `AccountAdded` (which carries no secret).
    @discardableResult
    public func addAccount(_ settings: AccountSettings, views: ViewStore) throws -> AccountAdded {
        let payload = try settings.validated()
        try views.catchUp()
        if try views.account(named: payload.name) != nil { throw AccountError.exists(payload.name) }
        let stream = StreamName.account(payload.name)
        let version = try log.streamVersion(stream)
        try log.append(NewEvent(event: .accountAdded(payload), account: payload.name, stream: stream, actor: .user,
                                expectedVersion: version == 0 ? .noStream : .exactly(version)))
        try views.catchUp()
        return payload
    }

    /// Removes an account from the configuration (`AccountRemoved`); its mail stays in the log.
    public func removeAccount(named name: String, views: ViewStore) throws {
        try views.catchUp()
        guard try views.account(named: name) != nil else { throw AccountError.notFound(name) }
        let stream = StreamName.account(name)
        try log.append(NewEvent(event: .accountRemoved(AccountRemoved(name: name)), account: name, stream: stream,
                                actor: .user, expectedVersion: .exactly(try log.streamVersion(stream))))
        try views.catchUp()
    }
}
