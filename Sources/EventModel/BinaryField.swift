/// A value with a compact binary form in event payloads.
///
/// Payloads are written field by field in a fixed order per schema version; there are no tags or
/// names on the wire, which keeps records small and decoding fast. A new field means a new schema
/// version of the payload, decoded by upcasting (see `PayloadCodable`).
@usableFromInline package protocol BinaryField: Sendable {
    /// Writes the value.
    func write(to writer: inout ByteWriter)
    /// Reads a value written by `write(to:)`.
    init(from reader: inout ByteReader) throws(DecodeError)
}

extension String: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) { writer.writeString(self) }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) { self = try reader.readString() }
}

extension Bool: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) { writer.writeByte(self ? 1 : 0) }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) {
        let b = try reader.readByte()
        guard b <= 1 else { throw DecodeError.malformed("boolean byte \(b)", at: reader.offset - 1) }
        self = b == 1
    }
}

extension UInt64: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) { writer.writeVarint(self) }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) { self = try reader.readVarint() }
}

extension Int64: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) { writer.writeSignedVarint(self) }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) { self = try reader.readSignedVarint() }
}

extension UInt32: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) { writer.writeVarint(UInt64(self)) }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) {
        let v = try reader.readVarint()
        guard let x = UInt32(exactly: v) else { throw DecodeError.malformed("UInt32 out of range", at: reader.offset) }
        self = x
    }
}

extension Int: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) { writer.writeSignedVarint(Int64(self)) }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) {
        let v = try reader.readSignedVarint()
        guard let x = Int(exactly: v) else { throw DecodeError.malformed("Int out of range", at: reader.offset) }
        self = x
    }
}

extension Optional: BinaryField where Wrapped: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) {
        switch self {
        case .none: writer.writeByte(0)
        case .some(let v): writer.writeByte(1); v.write(to: &writer)
        }
    }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) {
        switch try reader.readByte() {
        case 0: self = .none
        case 1: self = .some(try Wrapped(from: &reader))
        case let b: throw DecodeError.malformed("optional tag \(b)", at: reader.offset - 1)
        }
    }
}

extension Array: BinaryField where Element: BinaryField {
    @inlinable package func write(to writer: inout ByteWriter) {
        writer.writeVarint(UInt64(count))
        // Elements are written where they are (iterating copied each, retaining its strings).
        withUnsafeBufferPointer { buf in
            for i in buf.indices { buf[i].write(to: &writer) }
        }
    }
    @inlinable package init(from reader: inout ByteReader) throws(DecodeError) {
        // Every element takes at least one byte, so the count is bounded by what remains.
        let n = try reader.readLength()
        var a: [Element] = []
        a.reserveCapacity(n)
        for _ in 0..<n { a.append(try Element(from: &reader)) }
        self = a
    }
}
