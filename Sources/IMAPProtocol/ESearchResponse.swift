/// An `ESEARCH` response (RFC 4731, RFC 7162).
public struct ESearchResponse: Hashable, Sendable {
    /// The tag of the command it answers, from `(TAG "a1")`.
    public var tag: String?
    /// Whether the numbers are UIDs (the `UID` marker).
    public var isUID: Bool
    /// `MIN n`.
    public var min: UInt32?
    /// `MAX n`.
    public var max: UInt32?
    /// `COUNT n`.
    public var count: UInt32?
    /// `ALL set`.
    public var all: UIDSet?
    /// `MODSEQ n`.
    public var modSeq: UInt64?
    /// Other return data by uppercased name.
    public var other: [String: IMAPValue]

    /// A response with the given parts.
    public init(tag: String? = nil, isUID: Bool = false, min: UInt32? = nil, max: UInt32? = nil,
                count: UInt32? = nil, all: UIDSet? = nil, modSeq: UInt64? = nil, other: [String: IMAPValue] = [:]) {
        self.tag = tag
        self.isUID = isUID
        self.min = min
        self.max = max
        self.count = count
        self.all = all
        self.modSeq = modSeq
        self.other = other
    }
}
