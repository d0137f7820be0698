/// One complete response from an IMAP server.
package enum IMAPResponse: Hashable, Sendable {
    /// A command-completion result: `a1 OK [READ-WRITE] SELECT completed`.
    case tagged(tag: String, status: ResponseStatus, code: ResponseCode?, text: String)
    /// Server data or a status the server volunteers: `* 3 EXISTS`, `* OK [UIDNEXT 4] ...`.
    case untagged(UntaggedResponse)
    /// A continuation request (`+ ...`): the server waits for the next part of a command,
    /// an authentication exchange step (the text is then base64) or confirms IDLE.
    case continuation(String)
}
