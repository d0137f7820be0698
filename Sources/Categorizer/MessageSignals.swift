import MailParser

/// What the categorizer's rules look at in one message: its sender, subject and the header fields that carry
/// bulk, list and automation signals. Taken from a parsed message (`init(_:)`) at ingest time, when every
/// header field is at hand; plain values, so the rules are pure and fast.
package struct MessageSignals: Sendable, Equatable {
    /// The From address, lowercased (empty when there is none).
    package var from: String
    /// The From display name.
    package var fromName: String
    /// The Sender address, lowercased (empty when there is none).
    package var sender: String
    /// The decoded subject.
    package var subject: String
    /// Whether it answers another message (In-Reply-To or References).
    package var isReply: Bool
    /// To and Cc addresses, lowercased.
    package var recipients: [String]
    /// `List-Id`, `List-Post`, `List-Unsubscribe`, `Precedence`, `Auto-Submitted` and the other signal
    /// fields (see `SignalHeader`): the first value of each, indexed by kind.
    private var values: [String?]
    /// `<img` tags in the HTML part (first 32 KiB).
    package var htmlImages: Int
    /// `<a ` links in the HTML part (first 32 KiB).
    package var htmlLinks: Int
    /// Whether the message has an HTML part but no plain-text part of its own.
    package var htmlOnly: Bool

    /// Creates signals from values (tests, benchmarks).
    package init(from: String, fromName: String = "", sender: String = "", subject: String = "", isReply: Bool = false,
                recipients: [String] = [], fields: [SignalHeader: String] = [:], htmlImages: Int = 0, htmlLinks: Int = 0,
                htmlOnly: Bool = false) {
        var values = MessageSignals.noValues
        for (k, v) in fields { values[k.rawValue] = v }
        self.init(lowercasedFrom: from.lowercased(), fromName: fromName, sender: sender.lowercased(), subject: subject,
                  isReply: isReply, recipients: recipients.map { $0.lowercased() }, values: values,
                  htmlImages: htmlImages, htmlLinks: htmlLinks, htmlOnly: htmlOnly)
    }

    /// Creates signals from addresses already lowercased and the signal fields' values, indexed by kind.
    private init(lowercasedFrom from: String, fromName: String, sender: String, subject: String, isReply: Bool,
                 recipients: [String], values: [String?], htmlImages: Int, htmlLinks: Int, htmlOnly: Bool) {
        self.from = from
        self.fromName = fromName
        self.sender = sender
        self.subject = subject
        self.isReply = isReply
        self.recipients = recipients
        self.values = values
        self.htmlImages = htmlImages
        self.htmlLinks = htmlLinks
        self.htmlOnly = htmlOnly
    }

    /// One empty slot per signal field.
    private static let noValues = [String?](repeating: nil, count: SignalHeader.allCases.count)

    /// The signals of a parsed message.
    package init(_ m: ParsedMessage) {
        // Each field's first value, straight into its slot (no dictionary of the fields on the way).
        var values = MessageSignals.noValues
        for h in m.headers {
            guard let kind = SignalHeader.kind(of: h.name), values[kind.rawValue] == nil else { continue }
            values[kind.rawValue] = h.value
        }
        var images = 0
        var links = 0
        if let html = m.htmlBody {
            (images, links) = MessageSignals.countTags(html)
        }
        // The addresses as `MailAddress.normalizedEmail` gives them: lowercased, and not copied when they have no capital.
        let from = MailAddress.sender(of: m.from)
        self.init(lowercasedFrom: from?.normalizedEmail ?? "", fromName: from?.name ?? "",
                  sender: m.sender?.normalizedEmail ?? "", subject: m.subject ?? "",
                  isReply: !m.inReplyTo.isEmpty || !m.references.isEmpty,
                  recipients: m.to.map(\.normalizedEmail) + m.cc.map(\.normalizedEmail), values: values,
                  htmlImages: images, htmlLinks: links, htmlOnly: m.htmlBody != nil && m.textBody == nil)
    }

    /// The first value of a signal field.
    package subscript(_ kind: SignalHeader) -> String? { values[kind.rawValue] }

    /// Counts `<img` and `<a ` tags (ASCII case-insensitive) in the first 32 KiB of `html`.
    static func countTags(_ html: String) -> (images: Int, links: Int) {
        var images = 0
        var links = 0
        var s = html
        s.withUTF8 { buf in
            let n = min(buf.count, 32 << 10)
            var i = 0
            while i + 4 < n {
                if buf[i] == UInt8(ascii: "<") {
                    let a = buf[i + 1] | 0x20
                    if a == UInt8(ascii: "a"), buf[i + 2] == UInt8(ascii: " ") || buf[i + 2] == UInt8(ascii: "\n") {
                        links += 1
                    } else if a == UInt8(ascii: "i"), buf[i + 2] | 0x20 == UInt8(ascii: "m"), buf[i + 3] | 0x20 == UInt8(ascii: "g") {
                        images += 1
                    }
                }
                i += 1
            }
        }
        return (images, links)
    }
}
