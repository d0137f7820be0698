import MailStore

/// Prints what writing actions back to the server did (the spec's "5 actions failed").
enum WriteBackSummary {
    static func print(_ a: WriteBackReport) {
        guard a != WriteBackReport() else { return }
        Swift.print("  actions: \(a.applied) applied, \(a.rejected) refused by the server, \(a.failed) to retry")
        for p in a.problems {
            Terminal.print("  \(p.retrying ? "will retry" : "refused"): action \(p.action) (\(p.emails) emails in \(p.threads.count) threads): \(p.reason)")
        }
        let failedThreads = Set(a.problems.flatMap(\.threads)).count
        if failedThreads > 0 { Swift.print("  \(failedThreads) threads failed; `mailstore actions --failed` lists them, `mailstore retry ACTION` retries") }
    }
}
