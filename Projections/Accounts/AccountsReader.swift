/// Reads the accounts view.
public struct AccountsReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    public init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// Every account, by name.
    public func all() throws -> [AccountRecord] {
        try snapshot.prefixed(AccountsProjector.listTable, []).map(\.1)
    }

    /// The account named `name`, or nil.
    public func account(named name: String) throws -> AccountRecord? {
        try snapshot.get(AccountsProjector.listTable, Key(name).bytes)
    }
}
