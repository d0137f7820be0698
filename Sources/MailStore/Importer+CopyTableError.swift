import Foundation

extension Importer {
    /// The file that numbers an mbox's identical copies past the ones held in memory (`CopyNumbering`) could not be
    /// made, read or written: the import stops (what it committed stays; importing again appends only what is
    /// missing) rather than number a copy wrongly, which would take it for another and drop it.
    struct CopyTableError: Error, CustomStringConvertible {
        /// The file (or its folder).
        var path: String
        /// What was done to it (`creating`, `writing`...).
        var what: String
        /// Why it failed.
        var why: String

        var description: String {
            "cannot number the identical copies of the mbox's messages: \(what) \(path) failed (\(why)); make room on the store's "
                + "disk (the import keeps this table in the store's scratch/ folder, at most 64 bytes a distinct message) "
                + "and import again (nothing already imported is imported twice)"
        }
    }
}
