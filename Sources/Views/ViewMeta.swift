import EventModel

/// A view's bookkeeping in the views environment: its schema version and the last log sequence folded
/// into it. Written in the same transaction as the view's data.
struct ViewMeta: BinaryField, Equatable {
    var schemaVersion: UInt32
    var checkpoint: UInt64

    func write(to w: inout ByteWriter) {
        w.write(schemaVersion)
        w.write(checkpoint)
    }

    init(schemaVersion: UInt32, checkpoint: UInt64) {
        self.schemaVersion = schemaVersion
        self.checkpoint = checkpoint
    }

    init(from r: inout ByteReader) throws(DecodeError) {
        schemaVersion = try r.read()
        checkpoint = try r.read()
    }

    var encoded: [UInt8] {
        var w = ByteWriter(capacity: 16)
        write(to: &w)
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) -> ViewMeta? {
        bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            return try? ViewMeta(from: &r)
        }
    }
}
