import EventModel

/// One unread counter a thread adds to (`ThreadsProjector`'s `counts` table): the counter's key (scope, folder or
/// `#account`/`#badge`, the thread's category) and how many of the thread's messages it counts there.
package struct CountedUnread: BinaryField, Equatable, Sendable {
    package var key: [UInt8]
    package var count: Int

    package init(key: [UInt8], count: Int) {
        self.key = key
        self.count = count
    }

    package func write(to w: inout ByteWriter) { w.writeBytes(key); w.write(count) }
    package init(from r: inout ByteReader) throws(DecodeError) {
        key = try r.readBytes()
        count = try r.read()
    }
}
