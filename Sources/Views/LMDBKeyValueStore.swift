import LMDB
import Projections

/// The projectors' `KeyValueStore` over the views environment, bound to one transaction at a time.
final class LMDBKeyValueStore: KeyValueStore {
    private let databases: [String: Database]
    var scope: TransactionScope?

    init(databases: [String: Database]) {
        self.databases = databases
    }

    private func db(_ table: String) -> Database {
        guard let d = databases[table] else { preconditionFailure("table \(table) was not opened") }
        return d
    }

    private var live: TransactionScope {
        guard let s = scope else { preconditionFailure("a projector touched its tables outside a views transaction") }
        return s
    }

    func get(_ table: String, _ key: [UInt8]) throws -> [UInt8]? { try live.get(db(table), key) }
    func put(_ table: String, _ key: [UInt8], _ value: [UInt8]) throws { try live.put(db(table), key, value) }
    func delete(_ table: String, _ key: [UInt8]) throws { try live.delete(db(table), key) }
}
