/// The signal tests behind the rules.
extension Categorizer {
    /// (local part, domain) of a lowercased address.
    static func split(_ address: String) -> (local: Substring, domain: Substring) {
        guard let at = address.utf8.lastIndex(of: UInt8(ascii: "@")) else { return (Substring(address), "") }
        return (address[..<at], address[address.utf8.index(after: at)...])
    }

    /// `domain` or its nearest parent domain in `set`.
    static func matchDomain(_ domain: Substring, _ set: Set<Substring>) -> String? {
        var d = domain
        while !d.isEmpty {
            if set.contains(d) { return String(d) }
            guard let dot = d.utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
            d = d[d.utf8.index(after: dot)...]
        }
        return nil
    }

    /// The local part without a `+…` suffix and without digits at the end (`alerts2+x` -> `alerts`).
    static func stem(_ local: Substring) -> Substring {
        var s = local
        if let plus = s.utf8.firstIndex(of: UInt8(ascii: "+")) { s = s[..<plus] }
        while let last = s.utf8.last, last >= UInt8(ascii: "0"), last <= UInt8(ascii: "9") { s = s[..<s.utf8.index(before: s.endIndex)] }
        return s
    }

    /// Whether the local part names an automated sender (`no-reply`, `notifications`, `alerts-eu`, `noreply-billing`…).
    static func isAutomated(_ local: Substring) -> Bool {
        let s = stem(local)
        if automatedLocalParts.contains(s) { return true }
        for sep in [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_")] {
            if let i = s.utf8.firstIndex(of: sep), automatedLocalParts.contains(s[..<i]) { return true }
            if let i = s.utf8.lastIndex(of: sep), automatedLocalParts.contains(s[s.utf8.index(after: i)...]) { return true }
        }
        let b = Array(s.utf8)
        return contains(b, noreplyBytes) || contains(b, noDashReplyBytes) || contains(b, donotreplyBytes)
    }

    private static let noreplyBytes = Array("noreply".utf8)
    private static let noDashReplyBytes = Array("no-reply".utf8)
    private static let donotreplyBytes = Array("donotreply".utf8)

    /// A developer-service or tracker header (GitHub, GitLab, Jira, Bugzilla, Gerrit).
    static func serviceHeader(_ m: MessageSignals) -> String? {
        if let v = m[.githubReason] { return "X-GitHub-Reason: \(v)" }
        if let v = m[.gitlabProject] { return "X-GitLab-Project: \(v)" }
        if let v = m[.jira] { return "X-JIRA-FingerPrint: \(v)" }
        if let v = m[.bugzilla] { return "X-Bugzilla-Product: \(v)" }
        if let v = m[.gerrit] { return "X-Gerrit-MessageType: \(v)" }
        if let v = m[.rtTicket] { return "RT-Ticket: \(v)" }
        return nil
    }

    /// A discussion list: `List-Post`, or `List-Id` with a list server's marks, or a list host.
    static func discussionList(_ m: MessageSignals, domain: Substring) -> Categorization? {
        if let post = m[.listPost], !post.lowercased().hasPrefix("no") {
            return Categorization(category: .forums, rule: "forums.list-post", evidence: post)
        }
        if let id = m[.listID] {
            let precedence = m[.precedence]?.lowercased() ?? ""
            let sender = m.sender
            if precedence == "list" || m[.mailman] != nil || m[.beenThere] != nil || m[.googleGroup] != nil || m[.mailingList] != nil
                || sender.containsBytes("-bounces") || sender.hasPrefix("owner-") || sender.containsBytes("-request@") {
                return Categorization(category: .forums, rule: "forums.list-server", evidence: id)
            }
            if let r = addressedToList(id, m.recipients) {
                return Categorization(category: .forums, rule: "forums.to-list", evidence: r)
            }
        }
        if let d = matchDomain(domain, listDomains) ?? matchDomain(split(m.sender).domain, listDomains) {
            return Categorization(category: .forums, rule: "forums.list-host", evidence: d)
        }
        let senderDomain = split(m.sender).domain
        if senderDomain.hasPrefix("list.") || senderDomain.hasPrefix("lists.") || senderDomain.hasPrefix("listserv.") {
            return Categorization(category: .forums, rule: "forums.list-host", evidence: String(senderDomain))
        }
        if let a = m[.archivedAt] ?? m[.listArchive] {
            return Categorization(category: .forums, rule: "forums.list-archive", evidence: a)
        }
        if let tag = listTag(m) {
            return Categorization(category: .forums, rule: "forums.subject-tag", evidence: tag)
        }
        if m.sender.hasPrefix("owner-") || m.sender.containsBytes("-bounces@") || m.sender.containsBytes("-request@") {
            return Categorization(category: .forums, rule: "forums.list-server", evidence: "Sender: \(m.sender)")
        }
        return nil
    }

    /// A list's subject tag naming a list it was sent to: `[notmuch] …` to `notmuch@notmuchmail.org`.
    static func listTag(_ m: MessageSignals) -> String? {
        guard !m.recipients.isEmpty, m.subject.utf8.contains(UInt8(ascii: "[")) else { return nil }
        var s = Substring(m.subject)
        while true {
            let t = s.drop { $0 == " " }
            let lower = t.prefix(4).lowercased()
            if lower.hasPrefix("re:") { s = t.dropFirst(3); continue }
            if lower == "fwd:" || lower.hasPrefix("fw:") { s = t.dropFirst(lower == "fwd:" ? 4 : 3); continue }
            s = t
            break
        }
        guard s.first == "[", let close = s.firstIndex(of: "]") else { return nil }
        let tag = s[s.index(after: s.startIndex)..<close].lowercased()
        guard tag.count >= 2, !tag.utf8.contains(0x20) else { return nil }
        for r in m.recipients {
            let local = split(r).local
            if local == tag || local.hasPrefix(tag + "-") || local.hasSuffix("-" + tag) { return "[\(tag)] to \(r)" }
        }
        return nil
    }

    /// The recipient that is the list of `listID` itself (`<linux-kernel.vger.kernel.org>`, sent to
    /// `linux-kernel@vger.kernel.org`).
    static func addressedToList(_ listID: String, _ recipients: [String]) -> String? {
        guard !recipients.isEmpty else { return nil }
        var id = Substring(listID.lowercased())
        if let open = id.lastIndex(of: "<"), let close = id.lastIndex(of: ">"), open < close {
            id = id[id.index(after: open)..<close]
        }
        for r in recipients {
            let (local, domain) = split(r)
            guard !local.isEmpty, !domain.isEmpty, id.utf8.count == local.utf8.count + 1 + domain.utf8.count else { continue }
            if id.utf8.starts(with: local.utf8), id.utf8.reversed().starts(with: domain.utf8.reversed()),
               id.utf8.dropFirst(local.utf8.count).first == UInt8(ascii: ".") { return r }
        }
        return nil
    }

    /// A ticket tracker's subject tag: `[support.example.org #33575] …`.
    static func ticketTag(_ subject: String) -> String? {
        let u = subject.utf8
        guard let open = u.firstIndex(of: UInt8(ascii: "[")), let close = u[open...].firstIndex(of: UInt8(ascii: "]")) else { return nil }
        let inner = u[u.index(after: open)..<close]
        guard let hash = inner.lastIndex(of: UInt8(ascii: "#")), hash > inner.startIndex,
              inner[u.index(before: hash)] == UInt8(ascii: " ") else { return nil }
        let digits = inner[u.index(after: hash)...]
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return String(subject[open...close])
    }

    /// An email-marketing platform's campaign header.
    static func campaignHeader(_ m: MessageSignals) -> String? {
        if let v = m[.mailchimp] { return "X-MC-User: \(v)" }
        if let v = m[.campaign] ?? m[.campaignID] { return "X-Campaign: \(v)" }
        if let v = m[.marketo] { return "X-MktoMailHdr: \(v)" }
        if let v = m[.hubspot] { return "X-HS-CID: \(v)" }
        if let v = m[.emarsys] { return "X-Emarsys-Identify: \(v)" }
        return nil
    }

    /// The first bulk-mail signal: List-Unsubscribe, Precedence bulk/junk, an ESP's header or domain.
    static func bulkSignal(_ m: MessageSignals) -> String? {
        if m[.listUnsubscribePost] != nil { return "List-Unsubscribe-Post" }
        if m[.listUnsubscribe] != nil { return "List-Unsubscribe" }
        if let p = m[.precedence]?.lowercased(), p == "bulk" || p == "junk" { return "Precedence: \(p)" }
        if m[.sendgrid] != nil { return "X-SG-EID" }
        if m[.mailgun] != nil { return "X-Mailgun-Tag" }
        if m[.sesOutgoing] != nil { return "X-SES-Outgoing" }
        if m[.feedbackID] != nil { return "Feedback-ID" }
        if let d = matchDomain(split(m.from).domain, espDomains) ?? matchDomain(split(m.sender).domain, espDomains) {
            return "sender at \(d)"
        }
        if let rp = m[.returnPath]?.lowercased(), let d = matchDomain(split(rp.trimmingAngles).domain, espDomains) {
            return "Return-Path at \(d)"
        }
        return nil
    }

    /// Whether `needle` occurs in `text` (bytes).
    static func contains(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { t in needle.withUnsafeBufferPointer { n in contains(t, n) } }
    }

    /// Whether `n` occurs in `t`; an empty `n` does not.
    static func contains(_ t: UnsafeBufferPointer<UInt8>, _ n: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = n.first, n.count <= t.count else { return false }
        let last = t.count - n.count
        var i = 0
        while i <= last {
            if t[i] == first {
                var j = 1
                while j < n.count, t[i + j] == n[j] { j += 1 }
                if j == n.count { return true }
            }
            i += 1
        }
        return false
    }
}

extension String {
    /// Without surrounding `<`, `>`, spaces and tabs. Byte by byte: all four are ASCII, which no UTF-8 sequence of
    /// another character contains (Foundation's `trimmingCharacters(in:)` made a `CharacterSet` and bridged through
    /// `NSString` for every message: ~30% of categorizing one, 2% of an import's CPU).
    var trimmingAngles: String {
        let u = utf8
        func trimmed(_ b: UInt8) -> Bool { b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == 0x20 || b == 0x09 }
        guard let first = u.firstIndex(where: { !trimmed($0) }) else { return "" }
        let last = u.lastIndex(where: { !trimmed($0) })!
        if first == u.startIndex && last == u.index(before: u.endIndex) { return self }
        return String(self[first...last])
    }

    /// Whether `needle` occurs in this string, compared as UTF-8 bytes (the `contains` Foundation adds to strings
    /// goes through `range(of:)`, a search by `NSString` rules, for every message).
    func containsBytes(_ needle: StaticString) -> Bool {
        var s = self
        return s.withUTF8 { Categorizer.contains($0, UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)) }
    }
}
