/// Why the in-memory store refused a write (the same limit LMDB enforces).
package enum InMemoryStoreError: Error, Equatable, CustomStringConvertible {
    /// A key that is empty or longer than LMDB allows.
    case keySize(table: String, bytes: Int)

    package var description: String {
        switch self {
        case .keySize(let t, let n): "key of \(n) bytes refused in \(t) (LMDB takes 1 to 511)"
        }
    }
}
