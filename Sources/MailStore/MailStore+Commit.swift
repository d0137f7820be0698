import EventLog
import EventModel
import Views

extension MailStore {
    /// Appends `events` (with `blobs`, in one transaction) and folds them into the views: the one way the
    /// library writes.
    ///
    /// Each event's `expectedVersion` is checked against its stream by the log (a mismatch throws and
    /// nothing is appended); events whose id is in the log already are not appended again (see the
    /// outcomes). Open views are caught up before and after the append; views not opened yet fold
    /// everything when they open, so a bulk import pays for no fold.
    @discardableResult
    package func commit(_ events: [NewEvent], blobs: [PendingBlob] = []) throws -> [AppendOutcome] {
        guard !events.isEmpty else { return [] }
        if let snapshot { throw MailStoreError.snapshot(sequence: snapshot.sequence) }
        let views = viewsIfOpen
        try views?.catchUp()
        let outcomes = try log.append(events, blobs: blobs)
        do {
            try views?.catchUp()
        } catch {
            throw RecordedButNotFolded(sequence: outcomes.map(\.sequence).max() ?? 0, underlying: error)
        }
        return outcomes
    }

    /// Runs `body` with `stream`'s version and the views caught up after it was read, and again (up to `attempts`
    /// times) when its append finds another process appended to the stream first (`EventLogError.wrongExpectedVersion`,
    /// nothing appended): optimistic concurrency, each try on what is there now. Nil when every try was beaten.
    package func retryingOnConflict<T>(on stream: StreamName, attempts: Int,
                                       _ body: (ExpectedVersion, ViewStore) throws -> T) throws -> T? {
        for _ in 0..<attempts {
            let expected = try expectedVersion(of: stream)
            let views = try latestViews()
            do {
                return try body(expected, views)
            } catch let e as EventLogError where e.isVersionConflict {
                continue
            }
        }
        return nil
    }

    /// The version to expect for a stream that may not exist yet: `.noStream` or its current version.
    package func expectedVersion(of stream: StreamName) throws -> ExpectedVersion {
        let version = try log.streamVersion(stream)
        return version == 0 ? .noStream : .exactly(version)
    }
}
