import Foundation
import Synchronization

/// Tokens a refresh got that could not be written to their token file (a write that failed although its room was set
/// aside: a copy-on-write file system out of space, an I/O error), kept in this process's memory so that it goes on
/// with them: a provider that rotates refresh tokens spent the one in the file. Each is used while the file still holds
/// the refresh token it replaced, and written as soon as it can be (the next time the token is asked for); one the file
/// moved on from (a new sign-in) is dropped. At most one per token file; lost when the process ends.
enum OAuthUnstoredTokens {
    private struct Entry {
        var file: OAuthTokenFile
        /// The refresh token the file on disk holds, which `file` replaced.
        var onDisk: String?
    }

    private static let entries = Mutex<[String: Entry]>([:])

    /// The warnings' receiver (``CredentialSource/setWarningHandler(_:)``); standard error until one is set.
    static let warn = Mutex<@Sendable (String) -> Void>({ message in
        FileHandle.standardError.write(Data("mailstore: warning: \(message)\n".utf8))
    })

    /// The token file at `path` as this process knows it: `read` (what the file holds), unless tokens that replaced its
    /// refresh token are kept here (`unstored` true then).
    static func current(_ read: OAuthTokenFile, path: String) -> (file: OAuthTokenFile, unstored: Bool) {
        entries.withLock { entries in
            guard let entry = entries[path] else { return (read, false) }
            guard entry.onDisk == read.refreshToken, entry.file.config == read.config,
                  entry.file.refreshTokenCommand == read.refreshTokenCommand else {
                entries[path] = nil
                return (read, false)
            }
            return (entry.file, true)
        }
    }

    /// Keeps `file`, not written to `path`, whose disk version holds the refresh token `onDisk`.
    static func keep(_ file: OAuthTokenFile, path: String, onDisk: String?) {
        entries.withLock { $0[path] = Entry(file: file, onDisk: onDisk) }
    }

    /// Drops what is kept for `path` (written, or the file moved on).
    static func forget(_ path: String) {
        _ = entries.withLock { $0.removeValue(forKey: path) }
    }
}
