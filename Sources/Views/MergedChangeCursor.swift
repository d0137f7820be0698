/// Layers of changes merged into one cursor in key order: where several hold a key, the first layer (the newest)
/// gives its change and the others' are passed over.
struct MergedChangeCursor: ChangeCursor {
    private var layers: [any ChangeCursor]
    private var current: Int?

    /// Merges `layers`, newest first (each already at its first entry).
    init(newestFirst layers: [any ChangeCursor]) {
        self.layers = layers
        current = MergedChangeCursor.smallest(layers)
    }

    private static func smallest(_ layers: [any ChangeCursor]) -> Int? {
        var best: Int?
        for (i, l) in layers.enumerated() {
            guard let k = l.key else { continue }
            // Strictly smaller only: on a tie the earlier (newer) layer stays.
            if let b = best, !k.lexicographicallyPrecedes(layers[b].key!) { continue }
            best = i
        }
        return best
    }

    var key: [UInt8]? { current.flatMap { layers[$0].key } }
    var value: [UInt8]? { layers[current!].value }

    mutating func advance() throws {
        guard let c = current, let k = layers[c].key else { return }
        // Every layer holding this key moves past it.
        for i in layers.indices where layers[i].key == k { try layers[i].advance() }
        current = MergedChangeCursor.smallest(layers)
    }
}
