/// What an import did.
public struct ImportSummary: Sendable, Equatable, Encodable {
    /// Messages found in the source.
    public var found = 0
    /// Messages appended as new `EmailReceived` events.
    public var imported = 0
    /// Messages already in the log (same source location): nothing appended.
    public var alreadyPresent = 0
    /// Messages imported with parser warnings (malformed in some way).
    public var malformed = 0
    /// How often each warning occurred, by its code.
    public var warnings: [String: Int] = [:]
    /// Messages that could not be read at all (the file vanished or is unreadable), with the reason.
    public var unreadable: [String] = []
    /// Messages skipped because they are over the size limit (`Importer.Options.maxMessageBytes`), with
    /// their location and size: nothing of them is stored.
    public var tooLarge: [String] = []
    /// Folders found.
    public var folders = 0
    /// Raw bytes read.
    public var bytes = 0
    /// Seconds taken.
    public var seconds = 0.0

    /// Creates an empty summary.
    public init() {}
}
