/// What a fetch of new mail (`SyncEngine.fetchNew`) left out, besides what it committed.
struct FetchOutcome {
    /// UIDs the server failed to deliver whole, each alone twice, in this call: given up for the UIDVALIDITY.
    var unfetchable: [UInt32] = []
}
