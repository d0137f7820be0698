import ArgumentParser
import EventLog
import Foundation
import LMDB
import MailStore
import NativeCodecs
import SMTPClient

/// The exit codes of `mailstore` (documented in docs/cli.md).
public enum CLIExit {
    /// Verification found problems.
    public static let problemsFound: Int32 = 1
    /// The store is missing, already exists, or has a newer format.
    public static let storeError: Int32 = 2
    /// A database, file or data error.
    public static let dataError: Int32 = 3
    /// The email, thread or folder asked for does not exist.
    public static let notFound: Int32 = 4
    /// A server or network error (connection, TLS, authentication, protocol).
    public static let serverError: Int32 = 5
    /// An account's configuration is wrong (a setting, the password file's mode, an unreadable secret).
    public static let configError: Int32 = 6
    /// A thread action cannot be taken (no Archive folder, nothing to do, undone already).
    public static let actionRefused: Int32 = 7

    /// Runs `body`; prints any error to stderr as `mailstore: error: ...` and exits with its code.
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let e as ExitCode {
            throw e
        } catch let e as CleanExit {
            throw e
        } catch let e as ValidationError {
            throw e
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(code(for: error))
        }
    }

    static func code(for error: any Error) -> Int32 {
        switch error {
        case is StoreError: storeError
        case is CLIError: notFound
        case SyncError.noAccount, SyncError.noAccounts, SyncError.folderNotFound, AccountError.notFound: notFound
        case SyncError.server, SyncError.noEmailFolders, is SMTPClientError: serverError
        case DraftError.notFound, DraftError.noAccount, DraftError.originalNotFound: notFound
        case DraftError.noSMTP: configError
        case DraftError.offline: serverError
        case is DraftError: actionRefused
        case is AccountError, SyncError.credential, CategorizeError.categorizerOff: configError
        case ThreadListError.folderNotFound, ThreadListError.threadNotFound: notFound
        case ThreadListError.actionFailed(let u as ActionError):
            if case .actionNotFound = u { notFound } else { actionRefused }
        default: dataError
        }
    }
}
