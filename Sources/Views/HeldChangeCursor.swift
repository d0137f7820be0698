/// The writes held behind of one table (`WriteBehind.Entries`) as a cursor.
struct HeldChangeCursor: ChangeCursor {
    private let held: WriteBehind.Entries
    private var at: Int

    init(_ held: WriteBehind.Entries) {
        self.held = held
        at = held.keys.startIndex
    }

    var key: [UInt8]? { at < held.keys.endIndex ? held.keys[at].bytes : nil }
    var value: [UInt8]? { held.values[held.keys[at]] ?? nil }
    mutating func advance() throws { at += 1 }
}
