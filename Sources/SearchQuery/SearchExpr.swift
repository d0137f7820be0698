/// A parsed search query: a boolean tree of text terms (matched by the full-text engine) and filters
/// (matched against a message's stored attributes).
package indirect enum SearchExpr: Equatable, Sendable {
    /// Every message (`*`).
    case all
    /// Words or a phrase, in one field or (no field) in every text field.
    case text(TextTerm)
    /// An exact attribute condition.
    case filter(FilterTerm)
    /// Every operand matches.
    case and([SearchExpr])
    /// At least one operand matches.
    case or([SearchExpr])
    /// The operand does not match.
    case not(SearchExpr)
}

/// The text fields a term can name (`from:`, `subject:` ...); nil in `TextTerm.field` means all but `mimetype`.
package enum TextField: String, CaseIterable, Sendable {
    case from, to, cc, subject, body, attachment, mimetype
}

/// Words or a phrase to match, case- and diacritics-insensitively.
package struct TextTerm: Hashable, Sendable {
    /// The field, or nil for every text field except `mimetype`.
    package var field: TextField?
    /// The text as typed (without quotes or a trailing `*`).
    package var text: String
    /// True for a quoted phrase (words in that order).
    package var isPhrase: Bool
    /// True when the last word is a prefix (`word*`).
    package var isPrefix: Bool

    package init(field: TextField? = nil, text: String, isPhrase: Bool = false, isPrefix: Bool = false) {
        self.field = field
        self.text = text
        self.isPhrase = isPhrase
        self.isPrefix = isPrefix
    }
}

/// `is:` values.
package enum MessageState: String, CaseIterable, Sendable {
    case unread, read, starred, unstarred, attachment
}

/// An exact condition on a message's attributes.
package enum FilterTerm: Equatable, Sendable {
    /// The account's local name.
    case account(String)
    /// The folder's full path (ASCII case-insensitive).
    case folder(String)
    /// The Message-ID, without angle brackets.
    case messageID(String)
    /// A thread id of the threads view.
    case thread(String)
    /// A state (`is:unread` ...).
    case state(MessageState)
    /// A category name (`primary`, `social`, `promotions`, `updates`, `forums`, `uncategorized`).
    case category(String)
    /// The message date in seconds since the epoch: `lower <= date < upper` (nil: unbounded).
    case date(lower: Int64?, upper: Int64?)
    /// The raw size in bytes: `lower <= size <= upper` (nil: unbounded).
    case size(lower: UInt64?, upper: UInt64?)
}
