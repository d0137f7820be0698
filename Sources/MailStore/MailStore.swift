import EventLog
import EventModel
import Foundation
import LMDB

/// A mail store: the embeddable entry point of the library (the CLI is built on it).
///
/// It owns the store folder and its event log; later layers (import, sync, projections) hang off it.
public final class MailStore: @unchecked Sendable {
    /// The program name and version written into new stores.
    public static let version = "mailstore 0.1.0"

    /// The store folder.
    public let directory: StoreDirectory
    /// The event log.
    public let log: EventLog

    private init(directory: StoreDirectory, log: EventLog) {
        self.directory = directory
        self.log = log
    }

    /// Creates a new store at `path` and records `StoreInitialized` as its first event.
    public static func create(at path: String, logOptions: Environment.Options = Environment.Options()) throws -> MailStore {
        let dir = StoreDirectory(path: path)
        try dir.create()
        let log = try EventLog(store: dir, options: logOptions)
        let initEvent = StoreInitialized(formatVersion: StoreDirectory.formatVersion, createdBy: MailStore.version)
        try log.append(NewEvent(event: .storeInitialized(initEvent), account: "", stream: "store", actor: .system,
                                expectedVersion: .noStream))
        return MailStore(directory: dir, log: log)
    }

    /// Opens the existing store at `path`.
    ///
    /// `bulk` opens the log without an fsync per commit (`MDB_NOSYNC`, for imports, which flush on every
    /// way out, an error included): a killed process still loses nothing committed, since the pages are in
    /// the OS cache. A crash of the machine before the flush may lose the last batches and, on a file
    /// system that does not keep write order, may corrupt the log (`mailstore verify` finds it); re-running
    /// the import appends exactly what is missing.
    public static func open(at path: String, readOnly: Bool = false, bulk: Bool = false) throws -> MailStore {
        let dir = StoreDirectory(path: path)
        var options = Environment.Options()
        options.readOnly = readOnly
        options.noSync = bulk
        // Imports touch the indexes at random: no read-ahead, so only the pages touched are mapped.
        options.noReadAhead = bulk
        let log = try EventLog(store: dir, options: options)
        return MailStore(directory: dir, log: log)
    }
}
