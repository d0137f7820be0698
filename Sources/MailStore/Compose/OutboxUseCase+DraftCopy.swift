import MailParser
import MessageComposer

extension OutboxUseCase {
    /// Drops the addresses a message cannot carry from an unfinished draft (its server copy); with no recipient
    /// left, Bcc gets the sender so the copy can still be composed (the header then says `undisclosed-recipients`).
    static func keepUsableAddresses(_ draft: inout MessageDraft) {
        func usable(_ list: [MailAddress]) -> [MailAddress] { list.filter { AddressList.problem(with: $0.email) == nil } }
        draft.to = usable(draft.to)
        draft.cc = usable(draft.cc)
        draft.bcc = usable(draft.bcc)
        if (draft.to + draft.cc + draft.bcc).isEmpty { draft.bcc = [draft.from] }
    }
}
