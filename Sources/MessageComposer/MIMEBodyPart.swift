/// One part of a message body: its header fields and its encoded bytes.
struct MIMEBodyPart {
    /// Header fields as name and tokens, for ``HeaderWriter/add(_:tokens:)``.
    var headers: [(name: String, tokens: [String])]
    /// The encoded body, CRLF line ends, ending with CRLF (or empty).
    var body: [UInt8]
}
