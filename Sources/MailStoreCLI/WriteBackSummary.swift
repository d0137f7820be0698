import MailStore

/// Prints what writing actions back to the server did (the spec's "5 actions failed").
enum WriteBackSummary {
    static func print(_ a: WriteBackReport) {
        drafts(a.drafts)
        var actions = a
        actions.drafts = DraftSyncReport()
        guard actions != WriteBackReport() else { return }
        Swift.print("  actions: \(a.applied) applied, \(a.rejected) refused by the server, \(a.failed) to retry"
                    + (a.waiting > 0 ? ", \(a.waiting) waiting for their retry time or behind an earlier action on the same mail "
                       + "(`mailstore sync` sends them when due; `ACTION --push` or `mailstore retry ACTION` now)" : ""))
        for p in a.problems {
            Terminal.print("  \(p.retrying ? "will retry" : "refused"): action \(p.action) (\(Counted.of(p.emails, "email")) in \(Counted.of(p.threads.count, "thread"))): \(p.reason)")
        }
        let failedThreads = Set(a.problems.flatMap(\.threads)).count
        if failedThreads > 0 { Swift.print("  \(Counted.of(failedThreads, "thread")) failed; `mailstore actions --failed` lists them, `mailstore retry ACTION` retries") }
    }

    /// Prints what putting the drafts on the server did; a draft kept local (no Drafts folder) is a warning.
    static func drafts(_ d: DraftSyncReport) {
        if d.stored + d.removed > 0 { Swift.print("  drafts: \(d.stored) stored in the server's Drafts, \(d.removed) old copies deleted") }
        for p in d.problems {
            if p.localOnly { Terminal.warning("draft \(p.draft): \(p.reason)") }
            else { Terminal.print("  draft \(p.draft) not on the server yet (\(p.retrying ? "will retry" : "refused")): \(p.reason)") }
        }
    }
}
