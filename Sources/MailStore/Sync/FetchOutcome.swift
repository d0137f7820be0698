/// What a fetch of new mail (`SyncEngine.fetchNew`) left out, besides what it committed.
struct FetchOutcome {
    /// UIDs the server says are over 64 MiB: not fetched (warned of at every sync while they are there).
    var tooLarge: [UInt32] = []
    /// UIDs the server failed to deliver whole, each alone twice, in this call: given up for the UIDVALIDITY.
    var unfetchable: [UInt32] = []
}
