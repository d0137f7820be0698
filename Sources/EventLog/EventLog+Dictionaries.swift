import EventModel
import Foundation
import LMDB
import NativeCodecs

/// Blob dictionaries, kept in the `meta` database (so stores of format 1 need no new database):
/// - `blob_dict_count` -> the number of dictionaries (UInt32, big-endian); ids run 1...count;
/// - `blob_dict#` + id (4 bytes, big-endian) -> SHA-256 of the dictionary (32 bytes) ‖ the dictionary;
/// - `blob_dict_account:` + account -> the id of the account's current dictionary.
extension EventLog {
    static let dictionaryCountKey = Array("blob_dict_count".utf8)

    static func dictionaryKey(_ id: UInt32) -> [UInt8] {
        Array("blob_dict#".utf8) + withUnsafeBytes(of: id.bigEndian) { Array($0) }
    }

    static func accountDictionaryKey(_ account: String) -> [UInt8] {
        Array(("blob_dict_account:" + EventLog.streamKey(account)).utf8)
    }

    /// The current blob dictionary of `account`, or nil when it has none.
    package func blobDictionary(account: String) throws -> BlobDictionary? {
        let id: UInt32? = try environment.read { txn in
            try txn.getBytes(meta, key: EventLog.accountDictionaryKey(account)).flatMap(EventLog.decodeDictionaryID)
        }
        guard let id else { return nil }
        guard let d = try dictionary(id: id) else {
            throw EventLogError.corruptBlob(hash: "dictionary \(id)", reason: "account '\(account)' names a missing dictionary")
        }
        return BlobDictionary(id: id, zstd: d)
    }

    /// Trains a dictionary on `samples` (raw messages of `account`), stores it and makes it the account's
    /// current one. Returns nil (and stores nothing) when the samples are too few or too small to train on.
    package func trainBlobDictionary(account: String, samples: [[UInt8]]) throws -> BlobDictionary? {
        if environment.readOnly { throw EventLogError.readOnly }
        var total = 0
        var taken: [[UInt8]] = []
        for s in samples where taken.count < BlobDictionary.maxSamples && total + s.count <= BlobDictionary.maxSampleBytes {
            taken.append(s)
            total += s.count
        }
        guard taken.count >= BlobDictionary.minSamples, total >= BlobDictionary.minSampleBytes,
              let bytes = ZstdDictionary.train(samples: taken, capacity: BlobDictionary.capacity(sampleBytes: total)) else { return nil }
        let zstd = try ZstdDictionary(bytes: bytes, level: BlobDictionary.level)
        let digest = try SHA256Hasher().hash(bytes)
        writerLock.lock()
        defer { writerLock.unlock() }
        let id: UInt32 = try environment.write { txn in
            let count = try txn.getBytes(meta, key: EventLog.dictionaryCountKey).flatMap(EventLog.decodeDictionaryID) ?? 0
            let id = count + 1
            let idBytes = withUnsafeBytes(of: id.bigEndian) { Array($0) }
            _ = try txn.put(meta, key: EventLog.dictionaryKey(id), value: digest + bytes)
            _ = try txn.put(meta, key: EventLog.dictionaryCountKey, value: idBytes)
            _ = try txn.put(meta, key: EventLog.accountDictionaryKey(account), value: idBytes)
            return id
        }
        dictionaries.put(id, zstd)
        return BlobDictionary(id: id, zstd: zstd)
    }

    /// The number of stored dictionaries.
    package func dictionaryCount() throws -> UInt32 {
        try environment.read { txn in
            try txn.getBytes(meta, key: EventLog.dictionaryCountKey).flatMap(EventLog.decodeDictionaryID) ?? 0
        }
    }

    /// The stored dictionary `id`, checked against its SHA-256 (cached once loaded); nil when absent.
    func dictionary(id: UInt32) throws -> ZstdDictionary? {
        if let d = dictionaries.get(id) { return d }
        return try environment.read { txn in try dictionary(id: id, txn) }
    }

    /// The same, read in `txn` when not cached (for a caller inside a read transaction: this thread can hold no second
    /// one).
    func dictionary(id: UInt32, _ txn: borrowing Transaction) throws -> ZstdDictionary? {
        if let d = dictionaries.get(id) { return d }
        guard let stored = try txn.getBytes(meta, key: EventLog.dictionaryKey(id)) else { return nil }
        let d = try EventLog.openDictionary(stored, id: id)
        dictionaries.put(id, d)
        return d
    }

    /// Checks a stored dictionary (hash ‖ bytes) and digests it.
    static func openDictionary(_ stored: [UInt8], id: UInt32) throws -> ZstdDictionary {
        guard stored.count > 32 else {
            throw EventLogError.corruptBlob(hash: "dictionary \(id)", reason: "stored form of \(stored.count) bytes")
        }
        let bytes = Array(stored[32...])
        guard try SHA256Hasher().hash(bytes) == Array(stored[..<32]) else {
            throw EventLogError.corruptBlob(hash: "dictionary \(id)", reason: "content does not match its SHA-256")
        }
        do {
            return try ZstdDictionary(bytes: bytes, level: BlobDictionary.level)
        } catch {
            throw EventLogError.corruptBlob(hash: "dictionary \(id)", reason: "\(error)")
        }
    }

    static func decodeDictionaryID(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count == 4 else { return nil }
        return bytes.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self)) }
    }
}

/// Loaded dictionaries by id, shared by the threads reading blobs.
final class DictionaryCache: @unchecked Sendable {
    private let lock = NSLock()
    private var byID: [UInt32: ZstdDictionary] = [:]

    func get(_ id: UInt32) -> ZstdDictionary? {
        lock.lock()
        defer { lock.unlock() }
        return byID[id]
    }

    func put(_ id: UInt32, _ d: ZstdDictionary) {
        lock.lock()
        defer { lock.unlock() }
        byID[id] = d
    }
}
