import Foundation
import LMDB
import XCTest

/// Several writers of one `MDB_WRITEMAP` file (the views, open in a syncing process and in a `mailstore project`):
/// LMDB sets the data file's size to the map's whenever a map is made, so a writer opening the file with a smaller
/// map than another's used to cut the file under that writer's map, and its next new page past the cut killed it
/// with SIGBUS (seen: a `project` opened while another one folded 48,000 events in). The other writer here is a
/// process of its own (`mailstore-torture hold-writer`), as in the field.
final class WriteMapWritersTests: LMDBTestCase {
    private func writeMapEnvironment() throws -> Environment {
        var o = Environment.Options()
        o.mapSize = 1 << 20
        o.writeMap = true
        return try Environment(path: dir.path, options: o)
    }

    private var fileSize: Int { Environment.fileSize(Environment.dataFile(dir.path)) ?? 0 }

    /// Starts a second writer of the folder in another process (growing its map to hold `reserve` bytes past the
    /// data); its map size and the file's size after its open.
    private func startSecondWriter(reserve: Int = 0) throws -> (Process, map: Int, file: Int) {
        let (child, line) = try startHelper(["hold-writer", "--path", dir.path, "--map-size", "\(1 << 20)", "--reserve", "\(reserve)"])
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "open", let map = Int(parts[1]), let file = Int(parts[2]) else {
            child.terminate()
            child.waitUntilExit()
            XCTFail("the helper said \(line)")
            throw CocoaError(.fileReadUnknown)
        }
        return (child, map, file)
    }

    /// A writer opening the file while another holds room reserved past its data takes the file's size as its map:
    /// the file is not cut, and the first writer goes on filling its room.
    func testASecondWriterNeverCutsTheFileUnderTheFirstsMap() throws {
        let env = try writeMapEnvironment()
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 64, valueBytes: 4 << 10)
        try env.reserve(room: 32 << 20)
        let reserved = env.mapSize
        XCTAssertEqual(fileSize, reserved, "a write map is its file's size")
        let (child, map, file) = try startSecondWriter()
        defer { child.terminate(); child.waitUntilExit() }
        XCTAssertGreaterThanOrEqual(file, reserved, "the second writer's open kept the file as long as the first's map")
        XCTAssertGreaterThanOrEqual(map, reserved, "the second writer's map is the file's size")
        // (A file cut shorter would kill this process on the writes below: stop at the failures above instead.)
        guard fileSize >= reserved else { return }
        try fill(env, db, count: 3_000, valueBytes: 4 << 10)
        XCTAssertEqual(env.mapSize, reserved, "the writes went into the reserved room, past the data the second writer saw")
        XCTAssertEqual(try env.read { try $0.stat(db).entries }, 3_000)
    }

    /// The room past the data is given back while no other writer has the file open: at an open, and by
    /// `shrinkToData`, which leaves it while another writer is there.
    func testTheRoomIsGivenBackOnlyWhenNoOtherWriterHasTheFile() throws {
        do {
            let env = try writeMapEnvironment()
            let db = try env.openDatabase("t", flags: .create)
            try fill(env, db, count: 64, valueBytes: 4 << 10)
            try env.reserve(room: 32 << 20)
        }
        XCTAssertGreaterThan(fileSize, 32 << 20)
        let env = try writeMapEnvironment()
        XCTAssertLessThan(env.mapSize, 2 << 20, "opened alone: the map (and the file) cut to the data or the size asked")
        XCTAssertEqual(fileSize, env.mapSize)
        try env.reserve(room: 32 << 20)
        let reserved = env.mapSize
        let (child, _, _) = try startSecondWriter()
        try env.shrinkToData()
        XCTAssertEqual(env.mapSize, reserved, "another writer has the file open: the room stays")
        XCTAssertEqual(fileSize, reserved)
        child.terminate()
        child.waitUntilExit()
        try env.shrinkToData()
        XCTAssertEqual(env.mapSize, env.usedBytes, "alone again: the room is given back")
        XCTAssertEqual(fileSize, env.usedBytes)
        // Still a writer: the map grows again when asked.
        try env.reserve(room: 4 << 20)
        XCTAssertGreaterThanOrEqual(env.mapSize - env.usedBytes, 4 << 20)
    }

    /// A writer that grows its map while another writer's map is larger (grown after this one opened) never sets
    /// the file below that map: it grows to the file's size at least.
    func testGrowingASmallerMapNeverCutsALargerOne() throws {
        let env = try writeMapEnvironment()
        let db = try env.openDatabase("t", flags: .create)
        try fill(env, db, count: 64, valueBytes: 4 << 10)
        let small = env.mapSize
        let (child, map, _) = try startSecondWriter(reserve: 32 << 20)
        defer { child.terminate(); child.waitUntilExit() }
        XCTAssertGreaterThan(map, 32 << 20)
        XCTAssertEqual(fileSize, map)
        // This map grows by a quarter (at least 1 MiB): far less than the other's, which the file must keep.
        try env.reserve(room: small - env.usedBytes + (1 << 20))
        XCTAssertGreaterThanOrEqual(fileSize, map, "the other writer's map is still the file")
        XCTAssertGreaterThanOrEqual(env.mapSize, map)
        try fill(env, db, count: 2_000, valueBytes: 4 << 10)
        XCTAssertEqual(try env.read { try $0.stat(db).entries }, 2_000)
    }
}
