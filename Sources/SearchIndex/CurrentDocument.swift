/// A copy's row in `docs` as it is now, read once by a fold step that may change it: its rowid, the sequence its
/// values hold since, and the values a kept version copies (`versionColumns`, in that order), ready to be bound.
struct CurrentDocument: Equatable {
    var rowid: Int64
    var since: Int64
    /// `versionColumns`' values.
    var values: [SQLiteValue]

    /// The columns of `docs` a kept version copies (besides rowid and since), and their kinds.
    static let versionColumns = "email_id, account, folder, message_id, flags, category, date, size, subject, participants"
    enum ColumnKind { case int, text }
    static let versionKinds: [ColumnKind] = [.text, .text, .text, .text, .int, .int, .int, .int, .text, .text]

    var folder: String { if case .text(let s) = values[2] { return s } else { return "" } }
    var flags: Int64 { if case .int(let n) = values[4] { return n } else { return 0 } }
    var category: Int64 { if case .int(let n) = values[5] { return n } else { return 0 } }

    /// The row a document inserts (`SearchIndex.insert`) at `sequence`, as `init(_:)` would read it back: each text as
    /// stored (up to its first NUL, as it is bound), the category the table's default (0).
    init(inserted d: SearchDocument, rowid: Int64, sequence: UInt64) {
        self.rowid = rowid
        since = Int64(sequence)
        let t = { (s: String) in SQLiteValue.text(CurrentDocument.stored(s)) }
        values = [t(d.emailID), t(d.account), t(d.folder), d.messageID.map(t) ?? .null, .int(d.flags), .int(0), .int(d.date),
                  .int(d.size), t(d.subject), t(d.participants)]
    }

    /// `text` as a row holds it once bound: up to its first NUL byte.
    static func stored(_ text: String) -> String {
        guard let nul = text.utf8.firstIndex(of: 0) else { return text }
        return String(text[..<nul])
    }

    /// The row `s` stands on: `SELECT rowid, since, <versionColumns>`.
    init(_ s: SQLiteStatement) {
        rowid = s.int(0)
        since = s.int(1)
        values = CurrentDocument.versionKinds.enumerated().map { i, kind in
            let c = Int32(i + 2)
            switch kind {
            case .int: return .int(s.int(c))
            case .text: return s.isNull(c) ? .null : .text(s.text(c))
            }
        }
    }
}
