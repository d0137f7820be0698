import Glibc

/// Why the views could not be opened, rebuilt, read or compared. The views are disposable: every error
/// that concerns their files says to rebuild them from the log, never to restore them from a backup.
package enum ViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No view by that name.
    case unknownView(String)
    /// No table by that name (a projector or reader asked for a table no view declares).
    case unknownTable(String)
    /// A view's files are damaged or unreadable.
    case damaged(String)
    /// Another process holds the views' build lock and did not release it in time.
    case busy(String)
    /// The views keep no history to read a past point from (a generation written before histories were kept, read
    /// where it cannot be rebuilt).
    case noHistory(String)
    /// Views at a past point were asked to fold: they only read.
    case pastPoint
    /// A rebuild could not write or read back the changes it spilled to a file (`SpillRun`): what failed, and the
    /// system's error number.
    case spillFailed(String, errno: Int32)

    package var description: String {
        switch self {
        case .unknownView(let v): "unknown view '\(v)'; views: \(ViewCatalog.names.joined(separator: ", "))"
        case .unknownTable(let t): "unknown view table '\(t)'"
        case .damaged(let d): "the views are damaged (\(d)); run `mailstore replay` to rebuild them from the log (nothing in the log is lost)"
        case .busy(let d): "the views are being rebuilt by another process (\(d)); try again when it is done"
        case .noHistory(let d): "the views keep no history (\(d)); `mailstore replay` rebuilds them with one"
        case .pastPoint: "views at a past point only read: they cannot fold the log"
        case .spillFailed(let what, let code): "\(what) failed: \(String(cString: strerror(code))); the views being built are dropped and the serving ones are intact: free disk space in the store's folder and run the rebuild again"
        }
    }
}
