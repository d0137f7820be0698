/// Where an email's date came from.
public enum DateSource: UInt8, Sendable, CaseIterable, BinaryField, CustomStringConvertible {
    /// The Date header.
    case header = 0
    /// The topmost Received header (Date missing or unparseable).
    case received = 1
    /// The mbox From_ line, the file time or the server's internal date.
    case fallback = 2
    /// Nothing: the import time.
    case none = 3

    public var description: String {
        switch self {
        case .header: "header"
        case .received: "received"
        case .fallback: "fallback"
        case .none: "none"
        }
    }

    @usableFromInline package func write(to w: inout ByteWriter) { w.writeByte(rawValue) }

    @usableFromInline package init(from r: inout ByteReader) throws(DecodeError) {
        self = DateSource(rawValue: try r.readByte()) ?? .none
    }
}
