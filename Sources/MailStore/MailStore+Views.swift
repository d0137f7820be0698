import EventLog
import Foundation
import Views

extension MailStore {
    /// Opens the views, rebuilding any that are missing, corrupt or of another schema version (told to
    /// `notice`), and folding the log's new events into them.
    public func openViews(notice: (String) -> Void = { _ in },
                          progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        try ViewStore.open(store: directory, log: log, notice: notice, progress: progress)
    }
}
