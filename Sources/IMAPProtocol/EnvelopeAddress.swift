/// One address of an `ENVELOPE`: `(name adl mailbox host)`.
///
/// A group `team: a@x, b@y;` appears as a start marker (host nil, mailbox the group name),
/// its members, and an end marker (mailbox and host nil).
package struct EnvelopeAddress: Hashable, Sendable {
    /// The display name.
    package var name: String?
    /// The obsolete source route.
    package var sourceRoute: String?
    /// The local part, or the group name in a group start marker.
    package var mailbox: String?
    /// The domain.
    package var host: String?

    /// An address with the given parts.
    package init(name: String? = nil, sourceRoute: String? = nil, mailbox: String?, host: String?) {
        self.name = name
        self.sourceRoute = sourceRoute
        self.mailbox = mailbox
        self.host = host
    }

    /// The address a four-item list describes, or nil when the value has another shape.
    package init?(_ value: IMAPValue) {
        guard let parts = value.elements, parts.count == 4 else { return nil }
        for part in parts {
            if case .list = part { return nil }
        }
        self.init(name: parts[0].text, sourceRoute: parts[1].text, mailbox: parts[2].text, host: parts[3].text)
    }

    /// `mailbox@host` when both are present.
    package var address: String? {
        guard let mailbox, let host else { return nil }
        return mailbox + "@" + host
    }

    /// Whether this marks the start of a group (host nil, mailbox the group name).
    package var isGroupStart: Bool { host == nil && mailbox != nil }

    /// Whether this marks the end of a group (mailbox and host nil).
    package var isGroupEnd: Bool { host == nil && mailbox == nil }
}
