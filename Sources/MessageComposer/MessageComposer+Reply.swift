import Foundation
import MailParser

extension MessageComposer {
    /// The subject of a reply: `Re: ` before `subject` without its reply prefixes (`Re:`, `RE:`,
    /// `Aw:`, `Sv:`, `Antw:`, `Re[2]:` ...), so it is never doubled.
    package static func replySubject(_ subject: String) -> String {
        prefixed("Re:", BaseSubject.removingPrefixes(subject, among: BaseSubject.replyPrefixes))
    }

    /// The subject of a forward: `Fwd: ` before `subject` without its forward prefixes (`Fwd:`,
    /// `Fw:`, `WG:`, `TR:` ...), so it is never doubled.
    package static func forwardSubject(_ subject: String) -> String {
        prefixed("Fwd:", BaseSubject.removingPrefixes(subject, among: BaseSubject.forwardPrefixes))
    }

    /// The most bytes of a reply's References (its ids and the spaces between them): a longer chain keeps its first id
    /// and the most recent ones. A parent's References may be 64 KiB (the parser's bound, which cuts the last id).
    package static let maxReferencesBytes = 8_192

    /// `In-Reply-To` and `References` of a reply to `parent` (RFC 5322 §3.6.4): the parent's
    /// `Message-ID`, and the parent's `References` (or, lacking them, its single `In-Reply-To`)
    /// followed by its `Message-ID`, each id once; past ``maxReferencesBytes`` the first id and the most recent ones
    /// that fit, in order (RFC 5322 §3.6.4 allows leaving out ids between them).
    package static func replyThreading(to parent: ParentMessage) -> (inReplyTo: String?, references: [String]) {
        let parentID = parent.messageID.flatMap(cleanID)
        var chain = parent.references.compactMap(cleanID)
        if chain.isEmpty, parent.inReplyTo.count == 1, let single = cleanID(parent.inReplyTo[0]) { chain = [single] }
        if let parentID { chain.append(parentID) }
        var seen: Set<String> = []
        chain = chain.filter { seen.insert($0).inserted }
        guard let first = chain.first, chain.reduce(0, { $0 + $1.utf8.count + 1 }) > maxReferencesBytes else { return (parentID, chain) }
        var recent: [String] = []
        var bytes = first.utf8.count
        for id in chain.dropFirst().reversed() {
            guard bytes + 1 + id.utf8.count <= maxReferencesBytes else { break }
            recent.append(id)
            bytes += 1 + id.utf8.count
        }
        return (parentID, [first] + recent.reversed())
    }

    /// The recipients of a reply to `parent` (RFC 5322 §3.6.3): its `Reply-To` when it has one, else its `From`;
    /// with `all`, also its `To` (in To) and its `Cc` (in Cc). `own` (the sender's addresses, compared as
    /// ``MailAddress/normalizedEmail``, case and all: they are the sender's own mailbox) are left out, and each mailbox
    /// comes once (compared as ``MailAddress/mailboxKey``: `A@x.example` and `a@x.example` both stay, as the message
    /// sent gives each its RCPT). A reply to the sender's own message
    /// (every author is in `own`) goes to that message's `To`, as mutt and Thunderbird do; a note to oneself (no one
    /// else at all) stays to oneself. With nobody left in To, Cc moves up.
    package static func replyRecipients(to parent: ParentMessage, all: Bool,
                                        own: Set<String>) -> (to: [MailAddress], cc: [MailAddress]) {
        let authors = parent.replyTo.isEmpty ? parent.from : parent.replyTo
        let fromSelf = !authors.isEmpty && authors.allSatisfy { own.contains($0.normalizedEmail) }
        let primary = fromSelf && !parent.to.isEmpty ? parent.to : authors
        var seen: Set<String> = []
        func others(_ list: [MailAddress]) -> [MailAddress] {
            list.filter { !$0.email.isEmpty && !own.contains($0.normalizedEmail) && seen.insert($0.mailboxKey).inserted }
        }
        var to = others(all ? primary + parent.to : primary)
        var cc = all ? others(parent.cc) : []
        if to.isEmpty { (to, cc) = (cc, []) }
        if to.isEmpty {
            // Nobody but the sender: a note to oneself is answered to oneself.
            var kept: Set<String> = []
            to = primary.filter { !$0.email.isEmpty && kept.insert($0.mailboxKey).inserted }
        }
        return (to, cc)
    }

    /// The parent's text quoted for a reply: `On DATE, NAME wrote:` and every line after `> `
    /// (`>` alone for an empty line, `>` before lines already quoted).
    package static func quotedBody(of parent: ParentMessage, timeZone: TimeZone) -> String {
        let author = MailAddress.sender(of: parent.from).map { $0.name ?? $0.email } ?? "someone"
        let attribution = parent.date.map { "On \(MessageDate.format($0, timeZone: timeZone)), \(author) wrote:" }
            ?? "\(author) wrote:"
        let quoted = lines(of: parent.text).map { line in
            line.isEmpty ? ">" : line.hasPrefix(">") ? ">" + line : "> " + line
        }
        return ([attribution] + quoted).joined(separator: "\n") + "\n"
    }

    /// The parent passed on in a forward: a `Forwarded message` line, its From, Date, Subject,
    /// To and Cc, an empty line and its text.
    package static func forwardedBlock(of parent: ParentMessage, timeZone: TimeZone) -> String {
        var block = ["---------- Forwarded message ----------"]
        let display = { (addresses: [MailAddress]) in
            addresses.map { address in address.name.map { "\($0) <\(address.email)>" } ?? address.email }.joined(separator: ", ")
        }
        if !parent.from.isEmpty { block.append("From: " + display(parent.from)) }
        if let date = parent.date { block.append("Date: " + MessageDate.format(date, timeZone: timeZone)) }
        if let subject = parent.subject { block.append("Subject: " + subject) }
        if !parent.to.isEmpty { block.append("To: " + display(parent.to)) }
        if !parent.cc.isEmpty { block.append("Cc: " + display(parent.cc)) }
        block.append("")
        block += lines(of: parent.text).map(String.init)
        return block.joined(separator: "\n") + "\n"
    }

    /// `prefix` and `rest` with a space between, or `prefix` alone when `rest` is empty.
    private static func prefixed(_ prefix: String, _ rest: String) -> String {
        rest.isEmpty ? prefix : prefix + " " + rest
    }
}
