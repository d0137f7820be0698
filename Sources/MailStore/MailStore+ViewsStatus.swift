import Views

extension MailStore {
    /// The state of the views on disk (generation, checkpoints, quarantined events), without folding or
    /// writing anything; nil when the views were never built.
    public func viewsStatus() throws -> ViewsStatus? {
        try ViewStore.status(store: directory, log: log)
    }
}
