/// Scans that merge entries held in memory (`WriteBehind`: a fold's writes not in the B-tree, or a look at a past
/// point's tail) with the entries of the table below them.
enum HeldEntries {
    /// Calls `body` with the entries `base` yields (by calling the closure it is given for each entry, in key order,
    /// until that returns false) merged with `held` (in key order; a nil value is a deletion): a held entry wins
    /// over the base's entry with the same key, a held deletion hides it. Stops when `body` returns false.
    static func mergedScan(_ held: WriteBehind.Entries,
                           base: ((UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws -> Void,
                           _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        // `base` and `body` are both the caller's closures, each called while the other runs.
        try withoutActuallyEscaping(body) { body in
            try merged(held, base: base, body)
        }
    }

    private static func merged(_ held: WriteBehind.Entries,
                               base: ((UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws -> Void,
                               _ body: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        guard !held.keys.isEmpty else { return try base(body) }
        var next = held.keys.startIndex
        /// Passes on the held entries before `key` (all of them for nil); false when `body` stopped.
        func heldBefore(_ key: UnsafeRawBufferPointer?) throws -> Bool {
            while next < held.keys.endIndex {
                let k = held.keys[next]
                if let key, !k.bytes.lexicographicallyPrecedes(key) { return true }
                next += 1
                if let v = held.values[k] ?? nil {
                    let go = try k.bytes.withUnsafeBytes { kb in try v.withUnsafeBytes { try body(kb, $0) } }
                    if !go { return false }
                }
            }
            return true
        }
        var stopped = false
        try base { key, value in
            guard try heldBefore(key) else { stopped = true; return false }
            if next < held.keys.endIndex, held.keys[next].bytes.elementsEqual(key) {
                // Replaced or deleted here: the held entry stands for it.
                let k = held.keys[next]
                next += 1
                guard let v = held.values[k] ?? nil else { return true }
                let go = try k.bytes.withUnsafeBytes { kb in try v.withUnsafeBytes { try body(kb, $0) } }
                if !go { stopped = true }
                return go
            }
            let go = try body(key, value)
            if !go { stopped = true }
            return go
        }
        if !stopped { _ = try heldBefore(nil) }
    }
}
