import EventLog
import EventModel
import MailStore
import Projections
import XCTest

/// `history --action`: the id `undo` prints (the `ActionUndone` event's, in the undone action's stream) and an
/// undo's inverse action lead to the whole chain: the undone action, its undo and the inverse.
final class ActionHistoryTests: ViewsTestCase {
    /// An archived thread, the archive undone (the inverse move queued): the archive's id, the undo's and the
    /// inverse's each show the archive, the undo and the inverse.
    func testTheUndosIdAndTheInversesLeadToTheUndoneAction() throws {
        try folder("INBOX", role: .inbox)
        try folder("Archive", role: .archive)
        try receive("e1")
        let t = try XCTUnwrap(try views().emailRecord(id: "e1")).threadID
        let actions = ManageThreadActionsUseCase(store: store)
        let archive = try actions.archiveThread(id: t)
        let undo = try actions.undo(actionId: archive.description)
        var inverse: EventID?
        try store.log.scan(filter: ScanFilter(types: [.threadMoved])) { ev in
            if ev.envelope.causationID == undo { inverse = ev.envelope.id }
            return true
        }
        let moved = try XCTUnwrap(inverse, "the undo's inverse move")
        for asked in [archive, undo, moved] {
            let chain = try store.history(of: .action(asked.description)).map(\.envelope.type)
            XCTAssertEqual(chain.filter { [.threadArchived, .actionUndone, .threadMoved].contains($0) },
                           [.threadArchived, .actionUndone, .threadMoved], "history --action \(asked)")
        }
    }
}
