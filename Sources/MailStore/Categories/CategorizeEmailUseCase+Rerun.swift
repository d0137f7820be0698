import Categorizer
import EventLog
import EventModel
import MailParser

extension CategorizeEmailUseCase {
    /// What one email's newest categorization is, as far as a re-run cares.
    private enum Latest {
        case none
        case classifier(name: String, version: UInt32, category: AICategory)
        case user
    }

    /// What a re-run needs of one email.
    private struct Pending {
        var account: String
        var blob: BlobHash
        var latest: Latest = .none
    }

    /// Re-categorizes the existing mail with the current classifier version: every email whose newest
    /// `EmailCategorized` is from an older version (or which has none) gets a new one, read from its raw
    /// message in the blob store. The user's corrections are left alone; old events are never edited. An email whose raw
    /// message is missing or damaged (its blob fails its SHA-256) is skipped and counted (`missingRaw`, `damagedRaw`).
    /// Idempotent: a second run finds everything up to date. `progress` gets (done, total).
    public func rerun(batchSize: Int = 512, progress: ((Int, Int) -> Void)? = nil) throws -> RerunSummary {
        guard isAvailable else { throw CategorizeError.categorizerOff }
        var pending: [String: Pending] = [:]
        var order: [String] = []
        try store.log.scan(filter: ScanFilter(types: [.emailReceived, .emailCategorized])) { ev in
            switch try ev.decode() {
            case .emailReceived(let p):
                if pending[p.emailID] == nil { order.append(p.emailID) }
                pending[p.emailID, default: Pending(account: ev.envelope.account, blob: p.blob)].blob = p.blob
            case .emailCategorized(let p):
                pending[p.emailID]?.latest = p.isUserCorrection
                    ? .user : .classifier(name: p.classifier, version: p.classifierVersion, category: p.category)
            default:
                break
            }
            return true
        }
        var summary = RerunSummary(classifier: CategorizeEmailUseCase.classifier)
        var categorizers: [String: Categorizer] = [:]
        let identity = try Identity()
        let correlation = EventID.generate()
        var batch: [NewEvent] = []
        func flush() throws {
            guard !batch.isEmpty else { return }
            try store.commit(batch)
            batch.removeAll(keepingCapacity: true)
        }
        for (i, id) in order.enumerated() {
            defer { if (i + 1) % 1000 == 0 || i + 1 == order.count { progress?(i + 1, order.count) } }
            guard let e = pending[id] else { continue }
            summary.examined += 1
            var before: AICategory?
            switch e.latest {
            case .user:
                summary.userCorrections += 1
                continue
            case .classifier(let name, let version, let category):
                if name == Categorizer.name && version >= Categorizer.version { summary.upToDate += 1; continue }
                before = category
            case .none:
                break
            }
            // A damaged blob skips its email, counted, as a missing one does: one bad message had stopped the run.
            let stored: [UInt8]?
            do {
                stored = try store.log.blob(e.blob)
            } catch let error as EventLogError where error.isCorruptBlob {
                summary.damagedRaw.append(id)
                continue
            }
            guard let raw = stored else { summary.missingRaw.append(id); continue }
            if categorizers[e.account] == nil {
                categorizers[e.account] = Categorizer(senderRules: try store.senderRules(account: e.account))
            }
            let result = categorizers[e.account]!.categorize(MessageSignals(MailParser.parse(raw)))
            let payload = EmailCategorized(emailID: id, category: result.category, classifier: Categorizer.name,
                                           classifierVersion: Categorizer.version, rule: result.explanation)
            batch.append(NewEvent(id: identity.eventID("EmailCategorized", e.account, id, Categorizer.name, "\(Categorizer.version)"),
                                  event: .emailCategorized(payload), account: e.account, stream: .email(id),
                                  correlationID: correlation, actor: .system))
            summary.recategorized += 1
            if before != result.category { summary.moved += 1 }
            if batch.count >= batchSize { try flush() }
        }
        try flush()
        return summary
    }
}
