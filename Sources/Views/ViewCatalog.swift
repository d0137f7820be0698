import Projections

/// The views a store maintains: projector types in the order they fold each event, and their tables
/// (learned from each projector's initializer, where they are declared).
package struct ViewCatalog: @unchecked Sendable {  // only metatypes: immutable, shared by threads safely
    /// The projector types.
    package let types: [any Projector.Type]

    /// A catalog of `types` (tests add a projector of their own).
    package init(_ types: [any Projector.Type]) { self.types = types }

    /// Every view mailstore maintains.
    package static var standard: ViewCatalog { ViewCatalog([
        ThreadsProjector.self, UnreadProjector.self, FoldersProjector.self, OutboxProjector.self, DedupProjector.self,
        AccountsProjector.self, SyncStateProjector.self, ActionsProjector.self, DraftsProjector.self, ContactsProjector.self, NotificationsProjector.self,
    ]) }

    /// The projector types of the standard catalog.
    package static var all: [any Projector.Type] { standard.types }

    /// The names of the standard views.
    package static var names: [String] { standard.types.map { $0.name.rawValue } }

    /// The projector type named `name` in the standard catalog.
    package static func type(named name: String) -> (any Projector.Type)? {
        standard.types.first { $0.name.rawValue == name }
    }

    /// The tables of `type`, as its initializer opens them.
    package static func tables(of type: any Projector.Type) -> [String] {
        let context = FoldContext(store: InMemoryKeyValueStore())
        _ = type.init(context: context)
        return context.tableNames
    }

    /// Every table of every view of this catalog.
    var tables: [String] { types.flatMap { ViewCatalog.tables(of: $0) } }

    /// The projector type named `name` in this catalog.
    func type(named name: String) -> (any Projector.Type)? { types.first { $0.name.rawValue == name } }

    /// This catalog with only the views named in `names`, in this catalog's order. Throws
    /// `ViewError.unknownView` for a name it does not have.
    package func restricted(to names: [String]) throws -> ViewCatalog {
        for n in names where type(named: n) == nil { throw ViewError.unknownView(n) }
        return ViewCatalog(types.filter { names.contains($0.name.rawValue) })
    }
}
