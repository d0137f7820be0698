import EventLog
import Foundation
import SearchIndex
import Views

extension MailStore {
    /// The store's views: opened when first needed (rebuilding any that are missing, corrupt or of another
    /// schema version, told to the store's `notice`) and caught up with the log then; `commit` keeps them
    /// caught up with what this store writes.
    public func views() throws -> ViewStore {
        viewsLock.lock()
        defer { viewsLock.unlock() }
        if let openedViews { return openedViews }
        let views = try ViewStore.open(store: directory, log: log, notice: notice)
        // As the views' half-built generations are, a search index a killed rebuild left half-built is removed.
        SearchIndex.removeStaleBuild(folder: searchFolder)
        openedViews = views
        return views
    }

    /// The views, also folding what other processes appended since they were last caught up.
    public func latestViews() throws -> ViewStore {
        let views = try views()
        if snapshot == nil { try views.catchUpUnlessDiskFull(notice: notice) }
        return views
    }

    /// The views if they are open, else nil (nothing is opened).
    var viewsIfOpen: ViewStore? {
        viewsLock.lock()
        defer { viewsLock.unlock() }
        return openedViews
    }

    /// Opens the views again when a replay (here or in another process) switched them to another generation since
    /// they were opened: a long-running process (a `sync --watch`) had gone on folding every event into the old one,
    /// deleted, for its whole life (its disk space unseen by `du`, its fold work doubled). True when it did.
    @discardableResult
    /// Checked and reopened under the views' lock (watches of several accounts share the store); views read from a
    /// private copy (a views folder this user cannot write) are left as they are.
    package func reopenViewsIfReplaced() throws -> Bool {
        viewsLock.lock()
        defer { viewsLock.unlock() }
        guard snapshot == nil, let open = openedViews, open.path.hasPrefix(directory.viewsPath + "/"),
              let current = ViewStore.currentGeneration(directory.viewsPath),
              (open.path as NSString).lastPathComponent != current else { return false }
        openedViews = nil
        openedViews = try ViewStore.open(store: directory, log: log, notice: notice)
        return true
    }

    /// Opens the views again (rebuilding any that need it, told to `notice`), folds the log's new events into
    /// them, and makes them the store's views.
    @discardableResult
    package func openViews(notice: (String) -> Void = { _ in },
                          progress: ((UInt64, UInt64) -> Void)? = nil) throws -> ViewStore {
        viewsLock.lock()
        defer { viewsLock.unlock() }
        openedViews = nil
        let views = try ViewStore.open(store: directory, log: log, notice: notice, progress: progress)
        openedViews = views
        return views
    }
}
