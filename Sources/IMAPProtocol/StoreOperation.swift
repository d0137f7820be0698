/// How `UID STORE` changes flags. Replacing the whole flag set (`FLAGS`) is deliberately not
/// offered: it races with other clients and loses their changes.
package enum StoreOperation: Hashable, Sendable {
    /// `+FLAGS`: add the flags.
    case add
    /// `-FLAGS`: remove the flags.
    case remove
}
