/// A copy's row in `docs` as it is now, read once by a fold step that may change it: its rowid, the sequence its
/// values hold since, and the values a kept version copies (`versionColumns`, in that order), ready to be bound.
struct CurrentDocument {
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
