/// A parameter of `SELECT` or `EXAMINE` (RFC 7162).
package enum SelectOption: Hashable, Sendable {
    /// `(CONDSTORE)`: report mod-sequences.
    case condstore
    /// `(QRESYNC (...))`: resynchronise quickly from known state (needs `ENABLE QRESYNC`).
    case qresync(QResyncParameters)
}
