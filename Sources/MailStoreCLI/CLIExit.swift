import ArgumentParser
import Foundation
import MailStore

/// The exit codes of `mailstore` (documented in docs/cli.md).
package enum CLIExit {
    /// Verification found problems.
    package static let problemsFound: Int32 = 1
    /// The store is missing, already exists, or has a newer format.
    package static let storeError: Int32 = 2
    /// A database, file or data error.
    package static let dataError: Int32 = 3
    /// The email, thread or folder asked for does not exist.
    package static let notFound: Int32 = 4
    /// A server or network error (connection, TLS, authentication, protocol).
    package static let serverError: Int32 = 5
    /// An account's configuration is wrong (a setting, the password file's mode, an unreadable secret).
    package static let configError: Int32 = 6
    /// A thread action cannot be taken (no Archive folder, nothing to do, undone already).
    package static let actionRefused: Int32 = 7
    /// A search ran past its `--timeout`.
    package static let timedOut: Int32 = 8

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
            if error is CLIError {
                Terminal.error("\(error)")
                throw ExitCode(notFound)
            }
            // A value the library refused (a point in time that is not one, an import's account or folder name, a backup
            // destination that cannot be one) is exit 64 with its reason, without the usage: the command line's form
            // was right.
            Terminal.error("\(error)")
            throw ExitCode(code(for: ErrorCategory(of: error)))
        }
    }

    /// The exit code of each kind of failure the library reports.
    static func code(for category: ErrorCategory) -> Int32 {
        switch category {
        case .store: storeError
        case .notFound: notFound
        case .server: serverError
        case .configuration: configError
        case .refused: actionRefused
        case .invalidInput: ExitCode.validationFailure.rawValue
        case .data: dataError
        case .timedOut: timedOut
        }
    }
}
