import EventModel

/// A table of a view, declared once by its projector: its name in the store and the type of its values.
/// The projector's fold writes it through a `ViewTable`; its reader reads it through a `Snapshot`, so the
/// name and the value type are never spelled twice.
package struct Table<Value: BinaryField>: Sendable, Hashable {
    /// The table's name in the store (`view.table`).
    package let name: String

    /// A table named `table` of `view`.
    package init(_ view: ViewName, _ table: String) {
        name = "\(view.rawValue).\(table)"
    }
}
