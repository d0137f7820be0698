/// An `ESEARCH` response (RFC 4731, RFC 7162).
package struct ESearchResponse: Hashable, Sendable {
    /// The tag of the command it answers, from `(TAG "a1")`.
    package var tag: String?
    /// Whether the numbers are UIDs (the `UID` marker).
    package var isUID: Bool
    /// `MIN n`.
    package var min: UInt32?
    /// `MAX n`.
    package var max: UInt32?
    /// `COUNT n`.
    package var count: UInt32?
    /// `ALL set`.
    package var all: UIDSet?
    /// `MODSEQ n`.
    package var modSeq: UInt64?
    /// Other return data by uppercased name.
    package var other: [String: IMAPValue]

    /// A response with the given parts.
    package init(tag: String? = nil, isUID: Bool = false, min: UInt32? = nil, max: UInt32? = nil,
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
