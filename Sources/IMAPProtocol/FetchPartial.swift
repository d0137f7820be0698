/// A byte range of a body section to fetch: `<offset.length>`.
package struct FetchPartial: Hashable, Sendable {
    /// The first byte to return.
    package var offset: UInt32
    /// The most bytes to return.
    package var length: UInt32

    /// The range of `length` bytes from `offset`.
    package init(offset: UInt32, length: UInt32) {
        self.offset = offset
        self.length = length
    }
}
