import EventModel

extension ActionKind {
    /// What the user is told when the server refuses a star (spec 004, E-29): the server's own reason (a
    /// read-only folder, a flag it does not keep) follows it.
    public static let starRefusal = "This provider does not support starred emails"

    /// The reason shown for the server's refusal (`detail`) of an action of this kind: for a star or an unstar the
    /// spec's sentence with the server's detail after it (`This provider does not support starred emails (INBOX
    /// is read-only for this account)`); for other kinds the detail as it is. A reason that already starts with
    /// the sentence is returned unchanged, so applying this again changes nothing.
    public func refusalReason(_ detail: String) -> String {
        guard flag?.name == "\\Flagged" else { return detail }
        if detail.hasPrefix(ActionKind.starRefusal) { return detail }
        return detail.isEmpty ? ActionKind.starRefusal : "\(ActionKind.starRefusal) (\(detail))"
    }
}
