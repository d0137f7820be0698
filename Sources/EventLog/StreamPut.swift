/// One stream index entry of a batch being put: its key's place in the batch's key arena, the 8 bytes of the
/// key that follow the prefix every key of the batch shares (the sort's first comparison), and the sequence.
struct StreamPut {
    var word: UInt64
    var start: Int
    var count: Int
    var seq: UInt64
}
