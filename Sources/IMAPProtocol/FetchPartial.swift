/// A byte range of a body section to fetch: `<offset.length>`.
public struct FetchPartial: Hashable, Sendable {
    /// The first byte to return.
    public var offset: UInt32
    /// The most bytes to return.
    public var length: UInt32

    /// The range of `length` bytes from `offset`.
    public init(offset: UInt32, length: UInt32) {
        self.offset = offset
        self.length = length
    }
}
