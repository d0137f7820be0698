import Foundation
import LMDB
import TestSupport
import XCTest

/// Shared setup for the LMDB layer's tests: a fresh folder per test and small environments.
class LMDBTestCase: FolderTestCase {
    override class var folderPrefix: String { "lmdb-test" }

    /// An environment in the test folder with a `mapSize`-byte map.
    func openEnvironment(mapSize: Int = 1 << 20, readOnly: Bool = false, maxReaders: UInt32 = 126) throws -> Environment {
        var o = Environment.Options()
        o.mapSize = mapSize
        o.readOnly = readOnly
        o.maxReaders = maxReaders
        return try Environment(path: dir.path, options: o)
    }

    /// An environment in the subfolder `name` of the test folder (made here), with a `mapSize`-byte map and the
    /// options `configure` sets.
    func openEnvironment(in name: String, mapSize: Int, _ configure: (inout Environment.Options) -> Void) throws -> Environment {
        let folder = dir.file(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var o = Environment.Options()
        o.mapSize = mapSize
        configure(&o)
        return try Environment(path: folder, options: o)
    }

    /// Writes `count` entries of `valueBytes` bytes each, in one transaction per `perTransaction` entries.
    func fill(_ env: Environment, _ db: Database, count: Int, valueBytes: Int, perTransaction: Int = 64) throws {
        var i = 0
        while i < count {
            let upTo = min(count, i + perTransaction)
            try env.write { txn in
                for k in i..<upTo { try txn.put(db, key: LMDBTestCase.key(k), value: LMDBTestCase.value(k, bytes: valueBytes)) }
            }
            i = upTo
        }
    }

    static func key(_ i: Int) -> [UInt8] { Array(String(format: "key-%08d", i).utf8) }
    static func value(_ i: Int, bytes: Int) -> [UInt8] { [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: bytes) }

    /// The path of `mailstore-torture`, the helper that holds readers and grows maps from another process.
    var torture: String { BuiltProducts.executable("mailstore-torture") }

    /// Starts `mailstore-torture` with `arguments` and waits for its first output line.
    func startHelper(_ arguments: [String]) throws -> (Process, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: torture)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        var line: [UInt8] = []
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
            line.append(contentsOf: byte)
        }
        return (p, String(decoding: line, as: UTF8.self))
    }
}
