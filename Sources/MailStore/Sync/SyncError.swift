import IMAPClient
import MailParser

/// Why a sync failed, and what to do.
public enum SyncError: Error, CustomStringConvertible {
    /// No account has this name.
    case noAccount(String)
    /// There are no accounts.
    case noAccounts
    /// A `--folder` the server does not list (or that is not syncable).
    case folderNotFound(String, available: [String])
    /// The server listed no syncable folder.
    case noEmailFolders
    /// The connection or a command failed.
    case server(IMAPClientError)
    /// The account's secret cannot be read.
    case credential(AccountError)
    /// No connection came free in the connection pool within its queue timeout (other syncs of this process hold them).
    case connectionsBusy(ConnectionPoolTimeout)
    /// The account synced but for `folders`, which the server refused (``SyncReport/failedFolders``, each named in a
    /// warning with the server's text).
    case foldersNotSynced(account: String, folders: [String])

    public var description: String {
        switch self {
        case .noAccount(let n): "no account named \"\(n)\"; see `mailstore account list`"
        case .noAccounts: "no accounts: add one with `mailstore account add`"
        // Folder names are the server's: each on one line (a line feed in one could forge a line of output).
        case .folderNotFound(let f, let available):
            "the server has no syncable folder \"\(TerminalText.line(f))\"; folders: \(available.map(TerminalText.line).joined(separator: ", "))"
        case .noEmailFolders: "No email folders found: the server listed no selectable mail folder"
        case .server(let e): e.description
        case .credential(let e): e.description
        case .connectionsBusy(let e): e.description
        case .foldersNotSynced(let account, let folders):
            "\(account): \(folders.count == 1 ? "1 folder" : "\(folders.count) folders") not synced (\(folders.map(TerminalText.line).joined(separator: ", "))): "
                + "the server refused \(folders.count == 1 ? "it" : "them") (see the warnings above; the other folders were synced); "
                + "check the folder's rights on the server (the IMAP read right), or sync again later"
        }
    }
}
