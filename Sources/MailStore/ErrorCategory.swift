import EventLog
import LMDB
import SearchIndex
import SMTPClient

/// What kind of failure an error from the library is, for callers that map errors to outcomes (the CLI
/// maps each to an exit code) without knowing the lower layers' error types.
public enum ErrorCategory: Sendable, Equatable {
    /// The store is missing, exists already, or has a newer format (or its search index a newer schema).
    case store
    /// The email, thread, folder, account, draft or action asked for does not exist.
    case notFound
    /// A server or network failure (connection, TLS, authentication, protocol).
    case server
    /// An account's configuration is wrong (a setting, a secret's file mode, an unreadable secret).
    case configuration
    /// The store refused to do it (no Archive folder, nothing to do, undone already, not sendable).
    case refused
    /// What was asked is malformed (a point in time that is not one).
    case invalidInput
    /// A database, file or data failure.
    case data
    /// A search ran past its time limit (`MailStore.search(timeLimit:)`).
    case timedOut

    /// The category of `error`.
    public init(of error: any Error) {
        switch error {
        case let e as RecordedButNotFolded: self = ErrorCategory(of: e.underlying)
        case ThreadListError.actionFailed(let e as RecordedButNotFolded): self = ErrorCategory(of: e.underlying)
        case is StoreError, is LinkedFileError, SearchIndexError.newerSchema, BackupError.destinationNotEmpty, BackupError.destinationIsLink,
             BackupError.destinationBusy: self = .store
        case BackupError.destinationInsideStore, BackupError.badDestination: self = .invalidInput
        case SearchIndexError.timedOut, SearchIndexError.notBuilt, SearchIndexError.privateNotBuilt, SearchIndexError.buildBusy,
             is SearchIndexBehind: self = .timedOut
        case NotificationError.tooManyVIPs, NotificationError.tooManyMutedThreads: self = .refused
        case NotificationError.settingsBusy: self = .data
        case MailStoreError.badPointInTime, is NotificationError, ImportError.invalidAccount, ImportError.invalidFolder: self = .invalidInput
        case MailStoreError.snapshot: self = .refused
        case SyncError.noAccount, SyncError.noAccounts, SyncError.folderNotFound, AccountError.notFound: self = .notFound
        case SyncError.server, SyncError.noEmailFolders, SyncError.connectionsBusy, SyncError.foldersNotSynced,
             is SMTPClientError: self = .server
        case DraftError.notFound, DraftError.noAccount, DraftError.originalNotFound: self = .notFound
        case DraftError.noSMTP: self = .configuration
        case DraftError.unreadableAttachment, DraftError.ambiguousDetach, DraftError.noAttachmentAt: self = .invalidInput
        case DraftError.attachmentMissing: self = .data
        case DraftError.offline: self = .server
        case is DraftError: self = .refused
        case AccountError.oauth(let e), SyncError.credential(.oauth(let e)): self = e.needsUser ? .configuration : .server
        // A token file not written (or its room not set aside: a full disk) is a file failure, as LMDB's: exit 3.
        case let e as AccountError where e.isWriteFailure: self = .data
        case SyncError.credential(let e) where e.isWriteFailure: self = .data
        case is AccountError, SyncError.credential, CategorizeError.categorizerOff, ImportError.accountIsConfigured,
             ImportError.accountNameLike: self = .configuration
        case let e as OAuthError: self = e.needsUser ? .configuration : .server
        case ThreadListError.folderNotFound, ThreadListError.folderHoldsNoMail, ThreadListError.threadNotFound: self = .notFound
        case ThreadListError.actionFailed(let u as ActionError):
            if case .actionNotFound = u { self = .notFound } else { self = .refused }
        default: self = .data
        }
    }
}
