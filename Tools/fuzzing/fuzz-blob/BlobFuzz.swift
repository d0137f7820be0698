import EventLog
import EventModel
import FuzzSupport
import NativeCodecs

/// Fuzzes the blob store's stored form (`BlobCodec`: a flag, the raw size, a dictionary id, then the data raw, zstd-
/// compressed, or compressed with an account's dictionary): what reading a damaged log file gets.
///
/// Invariants checked for every input:
/// - read as a stored blob, it decodes to exactly the size its header declares, or is refused as a corrupt blob
///   (`EventLogError.corruptBlob`); nothing is allocated beyond what the input can expand to (libFuzzer's
///   `-malloc_limit_mb`: the size in a header is checked before its output is allocated);
/// - taken as a message, it is stored (`BlobEncoder.prepare`, with and without the dictionary) and opened back
///   (`BlobCodec.open`, its SHA-256 checked) as the same bytes; with one of its stored bytes changed (which, and to
///   what, from the input) it opens as the same bytes or is refused as corrupt, never as other bytes.
enum BlobFuzz {
    /// The dictionary blobs name with id 7: raw content (zstd's raw-content dictionary), the kind of text mail starts with.
    static let dictionary: BlobDictionary = {
        let text = String(repeating: "Received: from mail.example.org (mail.example.org [192.0.2.1])\r\n\tby mx.example.net with ESMTPS id 4Xk2Qh0Z1rz9s\r\n"
            + "Content-Type: text/plain; charset=\"utf-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\nMIME-Version: 1.0\r\n", count: 8)
        return BlobDictionary(id: 7, zstd: try! ZstdDictionary(bytes: Array(text.utf8), level: BlobDictionary.level))
    }()
    nonisolated(unsafe) static let zstd = try! Zstd()
    nonisolated(unsafe) static let encoder = try! BlobEncoder(level: 1)

    static func lookup(_ id: UInt32) -> ZstdDictionary? { id == dictionary.id ? dictionary.zstd : nil }

    static func check(_ bytes: [UInt8]) {
        asStored(bytes)
        asMessage(bytes, dictionary: nil)
        asMessage(bytes, dictionary: dictionary)
    }

    static func asStored(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buf in
            do {
                let raw = try BlobCodec.decode(buf, name: "fuzz", zstd: zstd, dictionary: lookup)
                var r = ByteReader(buf)
                _ = try r.readByte()
                let size = try r.readVarint()
                FuzzCheck.require(UInt64(raw.count) == size, "decoded \(raw.count) bytes where the header declares \(size)")
            } catch EventLogError.corruptBlob {
            } catch {
                FuzzCheck.fail("a stored blob refused with \(error), not as a corrupt blob")
            }
        }
    }

    static func asMessage(_ bytes: [UInt8], dictionary: BlobDictionary?) {
        let pending: PendingBlob
        do {
            pending = try bytes.withUnsafeBytes { try encoder.prepare($0, dictionary: dictionary) }
        } catch {
            FuzzCheck.fail("\(bytes.count) bytes could not be stored: \(error)")
        }
        do {
            let opened = try pending.stored.withUnsafeBytes { try BlobCodec.open($0, hash: pending.hash, zstd: zstd, dictionary: lookup) }
            FuzzCheck.require(opened == bytes, "\(bytes.count) bytes stored open as \(opened.count) others")
        } catch {
            FuzzCheck.fail("\(bytes.count) bytes stored do not open: \(error)")
        }
        guard !pending.stored.isEmpty else { return }
        let seed = FuzzCheck.seed(of: bytes)
        var damaged = pending.stored
        let at = Int(seed % UInt64(damaged.count))
        damaged[at] ^= UInt8(truncatingIfNeeded: seed >> 32) | 1
        do {
            let opened = try damaged.withUnsafeBytes { try BlobCodec.open($0, hash: pending.hash, zstd: zstd, dictionary: lookup) }
            FuzzCheck.require(opened == bytes, "a damaged blob opened as other bytes")
        } catch EventLogError.corruptBlob {
        } catch {
            FuzzCheck.fail("a damaged blob refused with \(error), not as a corrupt blob")
        }
    }
}
