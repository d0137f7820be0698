import EventModel

/// A deterministic mailbox as events: folders, then threads of 1-5 messages (replies reference their
/// parents), categorised, mostly read, spread over folders, for view benchmarks.
struct ThreadedEvents {
    private var rng: RealisticEvents
    let account: String
    static let folders: [(String, FolderRole)] = [("INBOX", .inbox), ("Archive", .archive), ("Sent", .sent),
                                                  ("Lists/dev", .custom), ("Spam", .junk)]

    init(seed: UInt64, account: String = "bench") {
        rng = RealisticEvents(seed: seed)
        self.account = account
    }

    /// Folder events.
    func folderEvents() -> [NewEvent] {
        ThreadedEvents.folders.map { f in
            NewEvent(event: .folderDiscovered(FolderDiscovered(folder: f.0, displayName: f.0, role: f.1)), account: account,
                     stream: .folder(account: account, path: f.0), actor: .sync)
        }
    }

    /// The events of thread `t` (its messages, and categorisations), dated from `base`.
    mutating func thread(_ t: Int, base: Int64) -> [NewEvent] {
        var out: [NewEvent] = []
        let n = 1 + Int(rng.next() % 5)
        let folder = rng.next() % 10 < 7 ? "INBOX" : ThreadedEvents.folders[1 + Int(rng.next() % 4)].0
        let subject = rng.sentence(5).capitalized
        var refs: [String] = []
        let category = AICategory.allCases[Int(rng.next() % UInt64(AICategory.allCases.count))]
        for j in 0..<n {
            let id = "t\(t)m\(j)"
            let mid = "\(id)@bench.example"
            let date = Timestamp(microseconds: base + Int64(j) * 3_600_000_000 + Int64(rng.next() % 1_000_000_000))
            let p = EmailReceived(
                emailID: id, folder: folder, uid: UInt32(truncatingIfNeeded: t * 8 + j), uidValidity: 1, messageID: mid,
                inReplyTo: refs.suffix(1), references: refs, subject: (j > 0 ? "Re: " : "") + subject,
                from: [rng.address()], to: [rng.address()], date: date, dateSource: .header,
                flags: rng.next() % 10 < 7 ? ["\\Seen"] : [], snippet: String(rng.sentence(16).prefix(100)),
                attachments: rng.next() % 10 == 0 ? [AttachmentInfo(filename: "a.pdf", mimeType: "application/pdf", size: 1000, isInline: false)] : [],
                size: 4000, blob: BlobHash(bytes: [UInt8](repeating: UInt8(truncatingIfNeeded: t), count: 32))!)
            out.append(NewEvent(event: .emailReceived(p), account: account, stream: .email(id), occurredAt: date, actor: .sync))
            if category != .uncategorized {
                out.append(NewEvent(event: .emailCategorized(EmailCategorized(emailID: id, category: category, classifier: "bench")),
                                    account: account, stream: .email(id), occurredAt: date, actor: .system))
            }
            refs.append(mid)
        }
        return out
    }
}
