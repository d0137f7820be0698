/// The writes held behind of one table (`WriteBehind.Entries`) as a cursor.
struct HeldChangeCursor: ChangeCursor {
    private let held: WriteBehind.Entries
    private var at: Int

    init(_ held: WriteBehind.Entries) {
        self.held = held
        at = held.order.startIndex
    }

    var key: [UInt8]? { at < held.order.endIndex ? held.key(at: at) : nil }
    var value: [UInt8]? { held.value(at: at) }
    mutating func advance() throws { at += 1 }
}
