import Projections

/// Every view mailstore maintains, by name.
public enum ViewCatalog {
    /// The projector types, in the order they fold each event.
    public static var all: [any Projector.Type] {
        [ThreadsProjector.self, UnreadProjector.self, FoldersProjector.self, OutboxProjector.self, DedupProjector.self,
         AccountsProjector.self, SyncStateProjector.self, ActionsProjector.self, DraftsProjector.self, ContactsProjector.self]
    }

    /// The names of the views.
    public static var names: [String] { all.map { $0.name } }

    /// The projector type named `name`.
    public static func type(named name: String) -> (any Projector.Type)? {
        all.first { $0.name == name }
    }

    /// Every table of every view, plus the shared meta table.
    static var tables: [String] { all.flatMap { $0.tables } }

    /// Creates the projectors over `store`.
    static func make(_ types: [any Projector.Type], store: KeyValueStore) -> [any Projector] {
        types.map { $0.init(store: store) }
    }
}
