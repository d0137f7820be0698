/// A second open of an environment in this process that the handle already open on it cannot serve (see
/// `EnvironmentHandle`): LMDB must not open one environment twice in a process (the second open would reset the lock
/// file's reader table and writer mutex under the first), so the open is refused instead.
public struct HandleConflictError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The environment's folder.
    public let path: String
    /// What the open asked that the open handle does not do, e.g. `writing (the open handle is read-only)`.
    public let reason: String

    /// Creates the error for folder `path`.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "\(path) is already open in this process in another way, and LMDB must not open it twice: the open asked for "
            + "\(reason). Nothing was opened or changed; close the other user of this folder first (a store or views "
            + "opened earlier in this process), or open it the way it is open"
    }
}
