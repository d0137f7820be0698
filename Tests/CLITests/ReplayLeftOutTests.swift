import EventLog
import EventModel
import Foundation
import TestSupport
import XCTest

/// `replay` says which events it left out of the views it rebuilt: events it could not read (damage, or a newer
/// mailstore's) and events a view could not fold (a bug). It had said only "Rebuilt all views from N events", the
/// views lacking them told by `stats` alone.
final class ReplayLeftOutTests: CLITestCase {
    func testReplaySaysWhichEventsItLeftOut() throws {
        try mailstore("init")
        do {
            let log = try EventLog(store: StoreDirectory(path: store))
            try log.append(NewEvent(event: .folderRemoved(FolderRemoved(folder: "f")), account: "a", stream: "s", actor: .system))
            // A payload this build's decoder refuses (its version is this build's own: not a newer build's).
            try log.append(NewEvent(event: .unknown(type: .folderRemoved, version: FolderRemoved.schemaVersion, payload: [0xff, 0xff, 0xff]),
                                    account: "a", stream: "s", actor: .system))
            try log.append(NewEvent(event: .unknown(type: .folderRemoved, version: FolderRemoved.schemaVersion + 1, payload: [1, 0x66]),
                                    account: "a", stream: "s", actor: .system))
        }
        let r = try mailstore("replay", "--quiet")
        XCTAssertTrue(r.stdout.contains("Rebuilt all views from 4 events"), r.stdout)
        XCTAssertTrue(r.stderr.contains("2 events could not be read and are left out of the views"), r.stderr)
        XCTAssertTrue(r.stderr.contains("sequence 3"), r.stderr)
        XCTAssertTrue(r.stderr.contains("mailstore verify"), r.stderr)
        XCTAssertTrue(r.stderr.contains("written by a newer mailstore"), r.stderr)
    }
}
