import EventModel
import IMAPProtocol

/// A server folder with the role folder mapping gave it.
package struct MappedFolder: Sendable, Equatable {
    /// Which rule decided the role.
    package enum Tier: Int, Sendable, Equatable {
        /// RFC 6154 SPECIAL-USE attribute (or the INBOX name).
        case specialUse = 1
        /// The provider's own folder names.
        case providerName = 2
        /// Case-insensitive name heuristics.
        case heuristic = 3
        /// No rule matched: a custom folder.
        case none = 4
    }

    /// The decoded path, as the store records it (`Archive/2024`).
    package var path: String
    /// The name on the wire, sent back unchanged in commands.
    package var mailbox: MailboxName
    /// The name shown to people.
    package var displayName: String
    /// The role.
    package var role: FolderRole
    /// Which tier decided the role.
    package var tier: Tier
    /// The hierarchy delimiter, if the server has one.
    package var delimiter: String?
    /// LIST attributes as sent.
    package var attributes: [String]
    /// False for a folder the provider excludes from sync that is still recorded for its role (Gmail's All
    /// Mail, `\All`: the archive target): known in the folders view, never fetched.
    package var syncable = true
}
