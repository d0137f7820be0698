/// A two-way byte channel with timeouts: a TCP socket, or TLS running over one.
protocol ByteStream: AnyObject {
    /// Whether the bytes travel encrypted.
    var isEncrypted: Bool { get }
    /// Up to `maxCount` bytes as soon as some are there; empty at the end of the stream; nil when
    /// nothing arrived within `timeout` seconds (the stream stays usable).
    func read(maxCount: Int, timeout: Double) throws(TransportError) -> [UInt8]?
    /// Sends all of `bytes`, each wait for the peer bounded by `timeout` seconds.
    func write(_ bytes: [UInt8], timeout: Double) throws(TransportError)
    /// Ends the stream (best effort) and releases its resources.
    func close()
}
