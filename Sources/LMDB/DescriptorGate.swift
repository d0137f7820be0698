/// Keeps the descriptors LMDB opens out of the processes this one starts. LMDB opens an environment's data file
/// without close-on-exec (`mdb_env_get_fd`'s documentation leaves it to the caller), so `Environment` sets it right
/// after `mdb_env_open`; a child forked between the two would still inherit the file open for writing. So an open
/// holds this gate shared from `mdb_env_open` until its descriptor is marked, and whatever starts a process (a fork or
/// `posix_spawn`: the notify, withdraw and password commands) holds it exclusively while it does: a start waits for the
/// opens under way (each as long as one `mdb_env_open`), opens never wait for each other.
package enum DescriptorGate {
    private static let lock = ResizeLock()

    /// Runs `body` (an open of descriptors that are marked close-on-exec only after it) with no process started meanwhile.
    package static func opening<T>(_ body: () throws -> T) rethrows -> T {
        lock.lockShared()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` (a fork or `posix_spawn`) with no open of ``opening(_:)`` under way.
    package static func starting<T>(_ body: () throws -> T) rethrows -> T {
        lock.lockExclusive()
        defer { lock.unlock() }
        return try body()
    }
}
