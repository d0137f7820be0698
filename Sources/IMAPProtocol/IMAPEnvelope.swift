/// The `ENVELOPE` of a message: its main header fields as the server parsed them.
///
/// Strings are as sent (RFC 2047 encoded words are not decoded here).
package struct IMAPEnvelope: Hashable, Sendable {
    /// The `Date` field.
    package var date: String?
    /// The `Subject` field.
    package var subject: String?
    /// `From` addresses.
    package var from: [EnvelopeAddress]
    /// `Sender` addresses.
    package var sender: [EnvelopeAddress]
    /// `Reply-To` addresses.
    package var replyTo: [EnvelopeAddress]
    /// `To` addresses.
    package var to: [EnvelopeAddress]
    /// `Cc` addresses.
    package var cc: [EnvelopeAddress]
    /// `Bcc` addresses.
    package var bcc: [EnvelopeAddress]
    /// The `In-Reply-To` field.
    package var inReplyTo: String?
    /// The `Message-ID` field.
    package var messageID: String?

    /// An envelope with the given fields.
    package init(
        date: String? = nil, subject: String? = nil,
        from: [EnvelopeAddress] = [], sender: [EnvelopeAddress] = [], replyTo: [EnvelopeAddress] = [],
        to: [EnvelopeAddress] = [], cc: [EnvelopeAddress] = [], bcc: [EnvelopeAddress] = [],
        inReplyTo: String? = nil, messageID: String? = nil
    ) {
        self.date = date
        self.subject = subject
        self.from = from
        self.sender = sender
        self.replyTo = replyTo
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.inReplyTo = inReplyTo
        self.messageID = messageID
    }

    /// The envelope a parsed `ENVELOPE` value describes, or nil when the value is not a list
    /// of ten items with string-or-NIL fields and address lists in their places.
    package init?(_ value: IMAPValue) {
        guard let items = value.elements, items.count >= 10 else { return nil }
        func text(_ v: IMAPValue) -> String?? {
            switch v {
            case .nilValue: return .some(nil)
            case .string, .atom: return .some(v.text)
            case .list: return nil
            }
        }
        func addresses(_ v: IMAPValue) -> [EnvelopeAddress]? {
            if v.isNil { return [] }
            guard let list = v.elements else { return nil }
            var out: [EnvelopeAddress] = []
            for entry in list {
                guard let address = EnvelopeAddress(entry) else { return nil }
                out.append(address)
            }
            return out
        }
        guard let date = text(items[0]), let subject = text(items[1]),
              let from = addresses(items[2]), let sender = addresses(items[3]),
              let replyTo = addresses(items[4]), let to = addresses(items[5]),
              let cc = addresses(items[6]), let bcc = addresses(items[7]),
              let inReplyTo = text(items[8]), let messageID = text(items[9])
        else { return nil }
        self.init(date: date, subject: subject, from: from, sender: sender, replyTo: replyTo,
                  to: to, cc: cc, bcc: bcc, inReplyTo: inReplyTo, messageID: messageID)
    }
}
