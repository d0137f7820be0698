import SecureTransport

extension SyncEngine {
    /// Takes the next slice of a poll of every folder (a whole ``syncAll()`` in pieces): the first slice lists the
    /// folders, writes back and completes Sent filings as ``syncAll()`` does, then each slice syncs folders in order until
    /// `folders` are synced or `seconds` have passed since the slice began (looked at between folders: at least one folder
    /// a slice, a folder's sync is never cut), commits the checkpoints it gathered and gives the account's lock back.
    /// Returns the poll's report once its last folder is done (Gmail's kept copies checked then), nil while folders are
    /// left. A watch takes one slice at a time between reads of the Inbox's IDLE, so a poll of 10,000 folders no longer
    /// holds up the Inbox's new mail for as long as it takes. An error ends the poll (the next one starts afresh).
    func pollSlice(folders: Int, seconds: Double) throws -> SyncReport? {
        do {
            return try exclusively {
                let sliceStart = Deadline.now()
                let conn = try connect()
                var run = try poll ?? startRun(conn)
                poll = run
                categorizerPeopleChecked = false
                var synced = 0
                try committingGathered {
                    while !run.isDone && (synced == 0 || synced < folders && Deadline.now() - sliceStart < seconds) {
                        try syncNext(of: &run, connection ?? conn)
                        synced += 1
                    }
                }
                guard run.isDone else {
                    poll = run
                    return nil
                }
                abandonPoll()
                return try finishRun(run, connection ?? conn)
            }
        } catch {
            abandonPoll()
            throw error
        }
    }

    /// Whether a poll in slices is under way.
    var isPolling: Bool { poll != nil }

    /// Drops the poll under way (the next ``pollSlice(folders:seconds:)`` starts a new one with its LIST).
    func abandonPoll() {
        poll = nil
        listedStatus = [:]
    }

    /// Tells the poll under way that the server changed since its LIST (actions written back, a message filed in Sent):
    /// its folders' STATUS answers may be out of date, so the folders left are examined.
    func serverChangedDuringPoll() {
        listedStatus = [:]
    }
}
