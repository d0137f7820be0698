import EventModel

/// The copies of a message in one folder.
package struct FolderCopies: BinaryField, Equatable, Sendable {
    package var folder: String
    package var count: CopyCount

    package init(folder: String, count: CopyCount) {
        self.folder = folder
        self.count = count
    }

    package func write(to w: inout ByteWriter) { w.write(folder); count.write(to: &w) }
    package init(from r: inout ByteReader) throws(DecodeError) { folder = try r.read(); count = try r.read() }
}
