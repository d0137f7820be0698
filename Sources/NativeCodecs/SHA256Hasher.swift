import COpenSSL

/// SHA-256 through OpenSSL's EVP interface, with a reusable context.
///
/// Not thread-safe: give each thread (or each writer) its own hasher.
public final class SHA256Hasher {
    private let ctx: OpaquePointer
    private let md: OpaquePointer

    /// The digest size in bytes.
    public static let digestSize = 32

    /// Creates a hasher. Fails only when OpenSSL cannot provide SHA-256 (a broken installation).
    public init() throws {
        guard let md = EVP_MD_fetch(nil, "SHA256", nil) else {
            throw NativeCodecError.openSSL("EVP_MD_fetch(SHA256) failed: the OpenSSL installation lacks its default provider")
        }
        guard let ctx = EVP_MD_CTX_new() else {
            EVP_MD_free(md)
            throw NativeCodecError.openSSL("EVP_MD_CTX_new failed: out of memory")
        }
        self.md = md
        self.ctx = ctx
    }

    deinit {
        EVP_MD_CTX_free(ctx)
        EVP_MD_free(md)
    }

    /// Starts a new digest.
    @inline(__always) public func reset() {
        let rc = EVP_DigestInit_ex2(ctx, md, nil)
        precondition(rc == 1, "EVP_DigestInit_ex2 failed")
    }

    /// Feeds bytes into the digest.
    @inline(__always) public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let rc = EVP_DigestUpdate(ctx, base, bytes.count)
        precondition(rc == 1, "EVP_DigestUpdate failed")
    }

    /// Finishes the digest into `out` (32 bytes).
    @inline(__always) public func finish(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= 32)
        var len: UInt32 = 0
        let rc = EVP_DigestFinal_ex(ctx, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &len)
        precondition(rc == 1 && len == 32, "EVP_DigestFinal_ex failed")
    }

    /// Finishes the digest and returns it.
    public func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes { finish(into: $0) }
        return out
    }

    /// The SHA-256 of `bytes`.
    public func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        reset()
        update(bytes)
        return finish()
    }

    /// The SHA-256 of `bytes`.
    public func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0) }
    }
}
