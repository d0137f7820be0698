import Projections

/// One view's fold into memory over the views' history (`ViewStore.past`, and its scouts, `PastPrefetch`): the
/// projector, its store (`PastKeyValueStore`: the history under the writes held) and those writes (`WriteBehind`,
/// one per view, shared by its tables, so a view failing on an event undoes its own writes alone).
struct PastFold {
    let name: String
    /// The view's tables, each held in `held`.
    let tables: [String]
    let store: PastKeyValueStore
    let context: FoldContext
    let projector: any Projector
    let handles: EventTypeSet
    let held: WriteBehind

    /// A fold of `type` from nothing held.
    init(_ type: any Projector.Type) {
        name = type.name.rawValue
        tables = ViewCatalog.tables(of: type)
        let held = WriteBehind()
        self.held = held
        store = PastKeyValueStore(held: Dictionary(uniqueKeysWithValues: tables.map { ($0, held) }))
        context = FoldContext(store: store)
        projector = type.init(context: context)
        handles = type.handledEvents
    }
}
