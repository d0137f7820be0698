/// The storage a projector folds into: named tables of ordered byte keys and byte values.
///
/// Projectors are pure folds over this interface; the I/O layer implements it over LMDB (the views
/// environment) and tests can implement it in memory.
public protocol KeyValueStore: AnyObject {
    /// The value of `key` in `table`, or nil.
    func get(_ table: String, _ key: [UInt8]) throws -> [UInt8]?
    /// Stores `value` under `key`.
    func put(_ table: String, _ key: [UInt8], _ value: [UInt8]) throws
    /// Removes `key`.
    func delete(_ table: String, _ key: [UInt8]) throws
}
