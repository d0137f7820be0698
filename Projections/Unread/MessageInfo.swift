import EventModel

/// Per message of an account: its category and the folders holding a copy.
package struct MessageInfo: BinaryField, Equatable, Sendable {
    package var category: AICategory = .uncategorized
    package var folders: [String] = []

    package init() {}

    package func write(to w: inout ByteWriter) { w.write(category); w.write(folders) }
    package init(from r: inout ByteReader) throws(DecodeError) { category = try r.read(); folders = try r.read() }
}
