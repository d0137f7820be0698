/// What `history` is asked about.
public enum HistorySubject: Sendable, Equatable {
    case thread(String)
    case email(String)
    case action(String)
    /// An account's configuration stream: `AccountAdded`, where its servers came from
    /// (`AccountSettingsDiscovered`), `AccountRemoved`.
    case account(String)
}
