import LMDB

extension ErrorCategory {
    /// True when `error` is what a damaged store file gives a read (LMDB's `MDB_CORRUPTED`, `MDB_PAGE_NOTFOUND`, keys
    /// out of order, bad page sizes): for `verify`, a finding to report, not a failure to run. (A log file that is
    /// missing or not a log at all is `StoreError`, exit 2, as for every command.)
    public static func isFileDamage(_ error: any Error) -> Bool {
        (error as? LMDBError)?.mayBeDamage ?? false
    }
}
