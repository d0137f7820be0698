/// Reads the accounts view.
package struct AccountsReader {
    let snapshot: Snapshot

    /// A reader over `snapshot`.
    package init(_ snapshot: Snapshot) { self.snapshot = snapshot }

    /// Every account, by name.
    package func all() throws -> [AccountRecord] {
        try snapshot.prefixed(AccountsProjector.listTable, []).map(\.1)
    }

    /// The account named `name`, or nil.
    package func account(named name: String) throws -> AccountRecord? {
        try snapshot.get(AccountsProjector.listTable, Key(name).bytes)
    }

    /// The cached discovery of `domain` (lowercased), or nil.
    package func discovery(domain: String) throws -> DiscoveryRecord? {
        try snapshot.get(AccountsProjector.discoveredTable, Key(domain).bytes)
    }
}
