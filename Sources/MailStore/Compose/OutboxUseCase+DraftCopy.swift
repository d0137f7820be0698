import MailParser
import MessageComposer

extension OutboxUseCase {
    /// Drops the addresses a message cannot carry from an unfinished draft (its server copy); with no recipient
    /// left, Bcc gets the sender so the copy can still be composed (the header then says `undisclosed-recipients`).
    /// Returns whether it did (that Bcc is then not the user's and is left out of the copy's header).
    @discardableResult
    static func keepUsableAddresses(_ draft: inout MessageDraft) -> Bool {
        func usable(_ list: [MailAddress]) -> [MailAddress] { list.filter { AddressList.problem(with: $0.email) == nil } }
        draft.to = usable(draft.to)
        draft.cc = usable(draft.cc)
        draft.bcc = usable(draft.bcc)
        guard (draft.to + draft.cc + draft.bcc).isEmpty else { return false }
        draft.bcc = [draft.from]
        return true
    }
}
