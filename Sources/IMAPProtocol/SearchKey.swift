/// A SEARCH criterion. A list of keys means all of them must match.
package indirect enum SearchKey: Hashable, Sendable {
    /// `ALL`.
    case all
    /// `ANSWERED`.
    case answered
    /// `DELETED`.
    case deleted
    /// `DRAFT`.
    case draft
    /// `FLAGGED`.
    case flagged
    /// `SEEN`.
    case seen
    /// `UNANSWERED`.
    case unanswered
    /// `UNDELETED`.
    case undeleted
    /// `UNDRAFT`.
    case undraft
    /// `UNFLAGGED`.
    case unflagged
    /// `UNSEEN`.
    case unseen
    /// `KEYWORD kw`.
    case keyword(String)
    /// `UNKEYWORD kw`.
    case unkeyword(String)
    /// `UID set`.
    case uid(UIDSet)
    /// `BEFORE date` (internal date).
    case before(SearchDate)
    /// `ON date` (internal date).
    case on(SearchDate)
    /// `SINCE date` (internal date).
    case since(SearchDate)
    /// `SENTBEFORE date` (Date header).
    case sentBefore(SearchDate)
    /// `SENTON date` (Date header).
    case sentOn(SearchDate)
    /// `SENTSINCE date` (Date header).
    case sentSince(SearchDate)
    /// `LARGER n` (octets).
    case larger(UInt32)
    /// `SMALLER n` (octets).
    case smaller(UInt32)
    /// `FROM text`.
    case from(String)
    /// `TO text`.
    case to(String)
    /// `CC text`.
    case cc(String)
    /// `BCC text`.
    case bcc(String)
    /// `SUBJECT text`.
    case subject(String)
    /// `BODY text`.
    case body(String)
    /// `TEXT text` (header and body).
    case text(String)
    /// `HEADER field text`.
    case header(String, String)
    /// `MODSEQ n` (RFC 7162): changed at or after mod-sequence `n`.
    case modSeq(UInt64)
    /// `NOT key`.
    case not(SearchKey)
    /// `OR a b`.
    case or(SearchKey, SearchKey)
    /// `(a b ...)`: all of the keys.
    case and([SearchKey])
    /// `X-GM-RAW "query"` (Gmail search syntax).
    case gmailRaw(String)
    /// `X-GM-MSGID n` (Gmail).
    case gmailMessageID(UInt64)
    /// `X-GM-THRID n` (Gmail).
    case gmailThreadID(UInt64)
}
