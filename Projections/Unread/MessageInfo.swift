import EventModel

/// Per message of an account: its category and the folders holding a copy.
public struct MessageInfo: BinaryField, Equatable, Sendable {
    public var category: AICategory = .uncategorized
    public var folders: [String] = []

    public init() {}

    public func write(to w: inout ByteWriter) { w.write(category); w.write(folders) }
    public init(from r: inout ByteReader) throws(DecodeError) { category = try r.read(); folders = try r.read() }
}
