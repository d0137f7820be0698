/// The reads `HistoryActionFollower` makes: of the actions view's indexes and records, and of the log (a seam, so a
/// test can count them or stand in for a store).
package struct HistoryActionLookups {
    /// The ids of the actions indexed as touching a thread, without reading their records (any order).
    package var actionsOnThread: (String) throws -> [String]
    /// The ids of the actions indexed as touching any of some emails (at most `HistoryActionFollower.emailChunk`, in
    /// one read), without reading their records (any order, repeats allowed).
    package var actionsOnEmails: ([String]) throws -> [String]
    /// An action's facts, read from its record (whole, every target of it), or nil when the view has no record.
    package var facts: (String) throws -> HistoryActionFacts?
    /// The ids of the `ActionUndone` events of an action's stream.
    package var undoEvents: (String) throws -> [String]

    /// Lookups made by these closures.
    package init(actionsOnThread: @escaping (String) throws -> [String],
                 actionsOnEmails: @escaping ([String]) throws -> [String],
                 facts: @escaping (String) throws -> HistoryActionFacts?,
                 undoEvents: @escaping (String) throws -> [String]) {
        self.actionsOnThread = actionsOnThread
        self.actionsOnEmails = actionsOnEmails
        self.facts = facts
        self.undoEvents = undoEvents
    }
}
