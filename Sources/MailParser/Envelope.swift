/// The envelope-level header values of a message, extracted in one pass
/// over its header fields.
struct Envelope {
    var messageID: String?
    var inReplyTo: [String] = []
    var references: [String] = []
    var subject: String?
    var from: [MailAddress] = []
    var sender: MailAddress?
    var replyTo: [MailAddress] = []
    var to: [MailAddress] = []
    var cc: [MailAddress] = []
    var bcc: [MailAddress] = []
    var date: String?
    var gmailThreadID: UInt64?
    var listID: String?

    /// Fills the fields from the first occurrence of each header (address
    /// headers that occur more than once are concatenated).
    mutating func collect(_ fields: [HeaderField], warnings: inout WarningList) {
        var seenMessageID = false
        var seenInReplyTo = false
        var seenReferences = false
        for f in fields {
            let name = f.name.utf8
            guard let first = name.first else { continue }
            switch ASCII.lower(first) {
            case 0x66:  // f
                if f.hasName("from") { from += AddressParser.parseList(f.value, warnings: &warnings) }
            case 0x74:  // t
                if f.hasName("to") { to += AddressParser.parseList(f.value, warnings: &warnings) }
            case 0x63:  // c
                if f.hasName("cc") { cc += AddressParser.parseList(f.value, warnings: &warnings) }
            case 0x62:  // b
                if f.hasName("bcc") { bcc += AddressParser.parseList(f.value, warnings: &warnings) }
            case 0x72:  // r
                if f.hasName("reply-to") {
                    replyTo += AddressParser.parseList(f.value, warnings: &warnings)
                } else if !seenReferences, f.hasName("references") {
                    seenReferences = true
                    references = MessageIDs.parseList(f.value)
                }
            case 0x73:  // s
                if subject == nil, f.hasName("subject") {
                    subject = EncodedWords.decode(f.value)
                } else if sender == nil, f.hasName("sender") {
                    sender = AddressParser.parseList(f.value, warnings: &warnings).first
                }
            case 0x64:  // d
                if date == nil, f.hasName("date") { date = f.value }
            case 0x6D:  // m
                if !seenMessageID, f.hasName("message-id") {
                    seenMessageID = true
                    messageID = MessageIDs.parseID(f.value)
                    if messageID == nil || !f.value.utf8.contains(ASCII.lessThan) {
                        warnings.add(.malformedMessageID, "Message-ID not in <id> form: \(f.value.prefix(60))")
                    }
                }
            case 0x69:  // i
                if !seenInReplyTo, f.hasName("in-reply-to") {
                    seenInReplyTo = true
                    inReplyTo = MessageIDs.parseList(f.value)
                }
            case 0x6C:  // l
                if listID == nil, f.hasName("list-id") { listID = Self.listID(f.value) }
            case 0x78:  // x
                if gmailThreadID == nil, f.hasName("x-gm-thrid") {
                    gmailThreadID = UInt64(f.value.trimmingASCIIWhitespace())
                }
            default:
                break
            }
        }
    }

    /// The id inside `<>` of a List-Id value, or the trimmed value.
    static func listID(_ value: String) -> String? {
        let u = value.utf8
        if let open = u.lastIndex(of: ASCII.lessThan) {
            let rest = u[u.index(after: open)...]
            let inner = rest.firstIndex(of: ASCII.greaterThan).map { rest[..<$0] } ?? rest
            let id = String(decoding: inner, as: UTF8.self).trimmingASCIIWhitespace()
            if !id.isEmpty { return id }
        }
        let t = value.trimmingASCIIWhitespace()
        return t.isEmpty ? nil : t
    }
}
