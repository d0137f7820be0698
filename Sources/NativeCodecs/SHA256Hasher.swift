import COpenSSL

/// SHA-256 through OpenSSL (its SHA-NI/AVX code paths), with a reusable context.
///
/// Uses OpenSSL's low-level SHA-256 calls through the C shim: the EVP interface allocates a provider
/// context on every init, which costs more than hashing a ~500-byte record. Not thread-safe: give each
/// thread (or each writer) its own hasher.
package final class SHA256Hasher {
    private let ctx: UnsafeMutablePointer<SHA256_CTX>

    /// The digest size in bytes.
    package static let digestSize = 32

    /// Creates a hasher.
    package init() throws {
        ctx = .allocate(capacity: 1)
        ctx.initialize(to: SHA256_CTX())
        guard mailstore_sha256_init(ctx) == 1 else {
            ctx.deallocate()
            throw NativeCodecError.openSSL("SHA256_Init failed")
        }
    }

    deinit { ctx.deallocate() }

    /// Starts a new digest.
    @inline(__always) package func reset() {
        let rc = mailstore_sha256_init(ctx)
        precondition(rc == 1, "SHA256_Init failed")
    }

    /// Feeds bytes into the digest.
    @inline(__always) package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let rc = mailstore_sha256_update(ctx, base, bytes.count)
        precondition(rc == 1, "SHA256_Update failed")
    }

    /// Finishes the digest into `out` (32 bytes).
    @inline(__always) package func finish(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= 32)
        let rc = mailstore_sha256_final(out.baseAddress!.assumingMemoryBound(to: UInt8.self), ctx)
        precondition(rc == 1, "SHA256_Final failed")
    }

    /// Finishes the digest and returns it.
    package func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes { finish(into: $0) }
        return out
    }

    /// The SHA-256 of `bytes`.
    package func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        reset()
        update(bytes)
        return finish()
    }

    /// The SHA-256 of `bytes`.
    package func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0) }
    }
}
