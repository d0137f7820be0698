/// What `HistoryActionFollower` needs of an action's record: the threads it touched and the action it answers.
package struct HistoryActionFacts: Sendable, Equatable {
    /// The threads the action touched.
    package var threadIDs: [String]
    /// The event that caused it (the action it retries, or the `ActionUndone` it inverts), if any.
    package var causation: String?
    /// How many targets the record held (read to get the rest): the work of reading it, counted.
    package var targetCount: Int

    /// Facts about one action.
    package init(threadIDs: [String], causation: String?, targetCount: Int) {
        self.threadIDs = threadIDs
        self.causation = causation
        self.targetCount = targetCount
    }
}
