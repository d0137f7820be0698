import EventModel

/// A deterministic stream of realistic events: mostly EmailReceived with real-sized headers,
/// snippets and participants, plus flag changes, categorisations, sync checkpoints and user actions.
struct RealisticEvents {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ a: [T]) -> T { a[Int(next() % UInt64(a.count))] }

    static let first = ["Alice", "Bob", "Carol", "David", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory",
                        "Niaj", "Olivia", "Peggy", "Rupert", "Sybil", "Trent", "Victor", "Walter", "Zoë", "José", "Søren"]
    static let last = ["Smith", "Jones", "Müller", "García", "Rossi", "Nakamura", "Kowalski", "Dubois", "Andersson", "Silva"]
    static let domains = ["example.com", "mail.example.org", "corp.example.net", "lists.example.io", "gmail.com"]
    static let words = ["meeting", "agenda", "quarterly", "report", "invoice", "release", "draft", "review", "budget",
                        "schedule", "follow-up", "design", "proposal", "update", "notes", "deadline", "launch", "team",
                        "customer", "feedback", "contract", "roadmap", "hiring", "offsite", "metrics", "incident"]

    mutating func address() -> EmailAddress {
        let f = pick(RealisticEvents.first), l = pick(RealisticEvents.last)
        let email = "\(f.lowercased()).\(l.lowercased())\(next() % 100)@\(pick(RealisticEvents.domains))"
        return EmailAddress(name: next() % 5 == 0 ? nil : "\(f) \(l)", email: email)
    }

    mutating func sentence(_ n: Int) -> String {
        (0..<n).map { _ in pick(RealisticEvents.words) }.joined(separator: " ")
    }

    /// The `i`-th event of the stream.
    mutating func event(_ i: Int) -> NewEvent {
        let r = next() % 100
        let account = "acct\(i % 3)"
        let emailID = "\(account):INBOX:\(i / 2)"
        let when = Timestamp(microseconds: 1_700_000_000_000_000 + Int64(i) * 60_000_000)
        let e: DomainEvent
        let stream: StreamName
        switch r {
        case 0..<70:
            let subject = (next() % 3 == 0 ? "Re: " : "") + sentence(4 + Int(next() % 6)).capitalized
            let refs = (0..<Int(next() % 4)).map { _ in "\(next() % 1_000_000).\(next() % 1000)@\(pick(RealisticEvents.domains))" }
            e = .emailReceived(EmailReceived(
                emailID: emailID, folder: "INBOX", uid: UInt32(i % 4_000_000_000), uidValidity: 1_700_000_000,
                messageID: "\(next()).\(i)@\(pick(RealisticEvents.domains))", inReplyTo: refs.suffix(1), references: refs,
                subject: subject, from: [address()], to: [address(), address()], cc: next() % 3 == 0 ? [address()] : [],
                date: when, dateSource: .header, flags: next() % 2 == 0 ? ["\\Seen"] : [],
                snippet: String(sentence(18).prefix(100)),
                attachments: next() % 10 == 0 ? [AttachmentInfo(filename: "report.pdf", mimeType: "application/pdf", size: 120_000, isInline: false)] : [],
                size: 2000 + next() % 30_000, blob: BlobHash(bytes: (0..<32).map { _ in UInt8(truncatingIfNeeded: next()) })!,
                listID: next() % 5 == 0 ? "dev.lists.example.io" : nil))
            stream = StreamName.email(emailID)
        case 70..<85:
            e = .flagsChanged(FlagsChanged(emailID: emailID, folder: "INBOX", flags: ["\\Seen", "\\Flagged"],
                                           added: ["\\Flagged"], removed: [], modSeq: UInt64(i)))
            stream = StreamName.email(emailID)
        case 85..<92:
            e = .emailCategorized(EmailCategorized(emailID: emailID, category: pick(AICategory.allCases), classifier: "rules-v1"))
            stream = StreamName.email(emailID)
        case 92..<96:
            e = .folderSyncCheckpointed(FolderSyncCheckpointed(folder: "INBOX", uidValidity: 1_700_000_000,
                                                               highestUID: UInt32(i), uidNext: UInt32(i + 1), highestModSeq: UInt64(i)))
            stream = StreamName.folder(account: account, path: "INBOX")
        default:
            e = .threadArchived(ThreadAction(threadIDs: ["t\(i / 7)"], targets: [ActionTarget(emailID: emailID, folder: "INBOX", flags: ["\\Seen"])],
                                             destination: "Archive"))
            stream = .thread("t\(i / 7)")
        }
        return NewEvent(event: e, account: account, stream: stream, occurredAt: when, actor: r >= 96 ? .user : .sync)
    }
}
