import IMAPProtocol

/// The tagged response that completed a command.
struct Completion {
    /// OK, NO or BAD.
    var status: ResponseStatus
    /// The response code, e.g. `APPENDUID` or `READ-ONLY`.
    var code: ResponseCode?
    /// The human-readable text.
    var text: String
}
