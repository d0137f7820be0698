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
    /// headers that occur more than once are concatenated). `kinds` says
    /// which known header each field is.
    ///
    /// `X-GM-THRID` is taken only where Gmail wrote it, in a Takeout export: among the first
    /// ``gmailExportFields`` fields, beside `X-Gmail-Labels`. Anywhere else it is text a sender wrote
    /// (any sender can put it in a message), and trusting it would thread a stranger's mail into a
    /// conversation and split a real reply from it; a synced copy's comes from the server (`X-GM-THRID`
    /// fetched from Gmail) or is none.
    /// The most addresses kept in one address field of a message, over all of its headers (a field may be
    /// repeated, each header up to its value's cap): the composer's own bound on recipients. A message naming more
    /// keeps the first ones, with a `tooManyAddresses` warning; without it, a message repeating `To:` a thousand
    /// times named millions of addresses and its event took gigabytes to fold.
    static let maxAddressesPerField = 1_000

    /// Adds the addresses of header `field` to `list`, up to ``maxAddressesPerField``: one warning per field the
    /// first time one is left out (`overflowed` names those warned of); a header of a field already full is not
    /// parsed. `authors` as ``AddressParser/parseList(_:authors:warnings:)`` takes it.
    static func append(_ field: HeaderField, to list: inout [MailAddress], _ name: String, authors: Bool = false,
                       overflowed: inout Set<String>, warnings: inout WarningList) {
        let room = maxAddressesPerField - list.count
        let parsed = room > 0 ? AddressParser.parseList(field.value, authors: authors, warnings: &warnings) : []
        let leftOut = room > 0 ? parsed.count > room : !field.value.allSatisfy(\.isWhitespace)
        if leftOut, overflowed.insert(name).inserted {
            warnings.add(.tooManyAddresses, "\(name): more than \(maxAddressesPerField) addresses; the first \(maxAddressesPerField) kept")
        }
        list += parsed.prefix(max(0, room))
    }

    mutating func collect(_ fields: [HeaderField], kinds: [KnownHeader], warnings: inout WarningList) {
        var seenMessageID = false
        var seenInReplyTo = false
        var seenReferences = false
        var overflowed = Set<String>()
        let gmailExport = fields.prefix(Self.gmailExportFields).contains { $0.hasName("x-gmail-labels") }
        for (index, (f, kind)) in zip(fields, kinds).enumerated() {
            switch kind {
            case .from: Self.append(f, to: &from, "From", authors: true, overflowed: &overflowed, warnings: &warnings)
            case .to: Self.append(f, to: &to, "To", overflowed: &overflowed, warnings: &warnings)
            case .cc: Self.append(f, to: &cc, "Cc", overflowed: &overflowed, warnings: &warnings)
            case .bcc: Self.append(f, to: &bcc, "Bcc", overflowed: &overflowed, warnings: &warnings)
            case .replyTo: Self.append(f, to: &replyTo, "Reply-To", authors: true, overflowed: &overflowed, warnings: &warnings)
            case .sender:
                if sender == nil { sender = AddressParser.parseList(f.value, authors: true, warnings: &warnings).first }
            case .subject:
                if subject == nil { subject = EncodedWords.decode(f.value) }
            case .date:
                if date == nil { date = f.value }
            case .messageID:
                if !seenMessageID {
                    seenMessageID = true
                    messageID = MessageIDs.parseID(f.value)
                    if messageID == nil || !f.value.containsByte(ASCII.lessThan) {
                        warnings.add(.malformedMessageID, "Message-ID not in <id> form: \(f.value.prefix(60))")
                    }
                }
            case .inReplyTo:
                if !seenInReplyTo {
                    seenInReplyTo = true
                    inReplyTo = MessageIDs.parseList(f.value)
                    if MessageIDs.hasOnlyBareIDs(f.value) {
                        warnings.add(.malformedMessageID, "In-Reply-To without <id>, ignored for threading: \(f.value.prefix(60))")
                    }
                }
            case .references:
                if !seenReferences {
                    seenReferences = true
                    references = MessageIDs.parseList(f.value)
                    if MessageIDs.hasOnlyBareIDs(f.value) {
                        warnings.add(.malformedMessageID, "References without <id>, ignored for threading: \(f.value.prefix(60))")
                    }
                }
            case .listID:
                if listID == nil { listID = Self.listID(f.value) }
            case .gmailThreadID:
                if gmailExport, index < Self.gmailExportFields, gmailThreadID == nil {
                    gmailThreadID = UInt64(f.value.trimmingASCIIWhitespace())
                }
            default:
                break
            }
        }
    }

    /// The fields at the top of a message Gmail's Takeout writes before the message's own (`X-GM-THRID`,
    /// `X-Gmail-Labels`).
    static let gmailExportFields = 2

    /// The id inside `<>` of a List-Id value, or the trimmed value.
    static func listID(_ value: String) -> String? {
        value.withBytes { b in
            var lo = 0
            var hi = b.count
            if let open = b.lastIndex(of: ASCII.lessThan) {
                let close = ByteScan.find(ASCII.greaterThan, in: b, from: open + 1, to: b.count) ?? b.count
                var l = open + 1
                var h = close
                while l < h, ASCII.isWhitespace(b[l]) { l += 1 }
                while h > l, ASCII.isWhitespace(b[h - 1]) { h -= 1 }
                if l < h { lo = l; hi = h }
            }
            while lo < hi, ASCII.isWhitespace(b[lo]) { lo += 1 }
            while hi > lo, ASCII.isWhitespace(b[hi - 1]) { hi -= 1 }
            return lo < hi ? ByteScan.headerString(b, from: lo, to: hi) : nil
        }
    }
}
