/// Scans that merge entries held in memory (`WriteBehind`: a fold's writes not in the B-tree, or a look at a past
/// point's tail) or spilled to runs (`SpilledRuns`) with the entries of the table below them.
enum HeldEntries {
    /// Calls `body` with the entries `base` yields (by calling the closure it is given for each entry, in key order,
    /// until that returns false) merged with `held` (in key order; a nil value is a deletion): a held entry wins
    /// over the base's entry with the same key, a held deletion hides it. Stops when `body` returns false.
    static func mergedScan(_ held: WriteBehind.Entries,
                           base: ((UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws -> Void,
                           _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        var cursor = HeldChangeCursor(held)
        try mergedScan(&cursor, base: base, body)
    }

    /// As `mergedScan(_:base:_:)` with the changes read from `changes` (at its first entry from the scan's start).
    static func mergedScan<C: ChangeCursor>(_ changes: inout C,
                                            base: ((UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws -> Void,
                                            _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        // `base` and `body` are both the caller's closures, each called while the other runs.
        try withoutActuallyEscaping(body) { body in
            try merged(&changes, base: base, body)
        }
    }

    private static func merged<C: ChangeCursor>(_ changes: inout C,
                                                base: ((UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws -> Void,
                                                _ body: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        guard changes.key != nil else { return try base(body) }
        // The changes before `key` (all that are left for nil), each given to `body` unless a deletion.
        func changesBefore(_ key: UnsafeRawBufferPointer?) throws -> Bool {
            while let k = changes.key {
                if let key, !k.lexicographicallyPrecedes(key) { return true }
                let v = changes.value
                try changes.advance()
                if let v {
                    let go = try k.withUnsafeBytes { kb in try v.withUnsafeBytes { try body(kb, $0) } }
                    if !go { return false }
                }
            }
            return true
        }
        var stopped = false
        try base { key, value in
            guard try changesBefore(key) else { stopped = true; return false }
            if let k = changes.key, k.elementsEqual(key) {
                // Replaced or deleted here: the change stands for it.
                let v = changes.value
                try changes.advance()
                guard let v else { return true }
                let go = try k.withUnsafeBytes { kb in try v.withUnsafeBytes { try body(kb, $0) } }
                if !go { stopped = true }
                return go
            }
            let go = try body(key, value)
            if !go { stopped = true }
            return go
        }
        if !stopped { _ = try changesBefore(nil) }
    }
}
