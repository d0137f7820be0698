/// A section of a message to fetch: `BODY[1.2.HEADER.FIELDS (FROM TO)]`.
///
/// ``description`` is the text between the brackets, which is also how the server names the
/// section in its response (compare case-insensitively).
package struct BodySection: Hashable, Sendable, CustomStringConvertible {
    /// What part of the (sub)message is meant.
    package enum Kind: Hashable, Sendable {
        /// `HEADER`: the whole header.
        case header
        /// `HEADER.FIELDS (...)`: only the named header fields.
        case headerFields([String])
        /// `HEADER.FIELDS.NOT (...)`: all but the named header fields.
        case headerFieldsNot([String])
        /// `TEXT`: the body without the header.
        case text
        /// `MIME`: the MIME header of a part (needs a part number).
        case mime
    }

    /// The MIME part number path, e.g. `[1, 2]` for part 1.2; empty for the whole message.
    package var part: [UInt32]
    /// The kind of section, nil for the whole part.
    package var kind: Kind?

    /// A section of the given part and kind.
    package init(part: [UInt32] = [], kind: Kind? = nil) {
        self.part = part
        self.kind = kind
    }

    /// `[]`: the whole message.
    package static let entire = BodySection()
    /// `[HEADER]`.
    package static let header = BodySection(kind: .header)
    /// `[TEXT]`.
    package static let text = BodySection(kind: .text)

    /// `[HEADER.FIELDS (names)]`.
    package static func headerFields(_ names: [String]) -> BodySection { BodySection(kind: .headerFields(names)) }

    /// The IMAP wire form.
    package var description: String {
        var writer = CommandWriter(literalMode: .nonSynchronizing)
        write(to: &writer)
        let bytes = writer.finish().joined()
        return String(decoding: bytes.dropLast(2), as: UTF8.self)
    }

    /// Writes the section text (without brackets); field names go out as astrings.
    func write(to writer: inout CommandWriter) {
        writer.raw(part.map(String.init).joined(separator: "."))
        guard let kind else { return }
        if !part.isEmpty { writer.raw(".") }
        switch kind {
        case .header: writer.raw("HEADER")
        case .text: writer.raw("TEXT")
        case .mime: writer.raw("MIME")
        case .headerFields(let names), .headerFieldsNot(let names):
            if case .headerFields = kind {
                writer.raw("HEADER.FIELDS (")
            } else {
                writer.raw("HEADER.FIELDS.NOT (")
            }
            for (i, name) in names.enumerated() {
                if i > 0 { writer.space() }
                writer.astring(Array(name.utf8))
            }
            writer.raw(")")
        }
    }
}
