/// A file of an environment (`data.mdb`, `lock.mdb`) that is not a regular file of its own: a symbolic link, or
/// something else (a FIFO, a device). LMDB opens and writes these files by name, so through a link it would write the
/// file the link names (a link planted as a store's `lock.mdb` had a root-run `stats` cut a root-owned file to 8,192
/// bytes and write its lock table over it). The environment is refused before LMDB opens anything.
public struct LinkedFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file.
    public let file: String
    /// True for a symbolic link; false for another kind of file that is not a regular file.
    public let isLink: Bool

    /// Creates the error for `file`.
    package init(file: String, isLink: Bool) {
        self.file = file
        self.isLink = isLink
    }

    public var description: String {
        let what = isLink ? "is a symbolic link" : "is not a regular file"
        return "\(file) \(what): a store's files are opened only as themselves, never through a link (whatever it names "
            + "would be written). Nothing was opened or changed; put the file itself in its place (a lock.mdb may simply "
            + "be removed: it is made again), or restore this folder from a backup"
    }
}
