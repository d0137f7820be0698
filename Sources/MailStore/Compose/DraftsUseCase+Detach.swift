import EventModel

/// Detaching: by name when one attachment has it, else by position, so an edit never drops an attachment it was not
/// told to (a `--detach report.pdf` had removed every `report.pdf` of the draft).
extension DraftsUseCase {
    /// The most attachments of one name an ambiguous `detach` lists (`DraftError.ambiguousDetach` counts the rest).
    public static let maxDetachCandidatesListed = 10

    /// `attachments` without those `input` names (`detach`, each the name of one attachment; a name no attachment has
    /// is said in `problems`) and those at its positions (`detachAt`, 1-based in the list's order). Refused, nothing
    /// dropped: a name several attachments share (`DraftError.ambiguousDetach`, their positions and sizes listed), a
    /// position past the list (`DraftError.noAttachmentAt`).
    static func detaching(_ input: DraftInput, from attachments: [EventModel.DraftAttachment],
                          problems: inout [String]) throws(DraftError) -> [EventModel.DraftAttachment] {
        var dropped = Set<Int>()
        for position in input.detachAt {
            guard position >= 1 && position <= attachments.count else {
                throw .noAttachmentAt(position, count: attachments.count)
            }
            dropped.insert(position - 1)
        }
        for name in input.detach {
            let named = attachments.indices.filter { attachments[$0].filename == name }
            guard let first = named.first else {
                problems.append("--detach \(name): the draft has no attachment of that name")
                continue
            }
            guard named.count == 1 else {
                let listed = named.prefix(maxDetachCandidatesListed)
                throw .ambiguousDetach(name, positions: listed.map { $0 + 1 }, sizes: listed.map { attachments[$0].size }, count: named.count)
            }
            dropped.insert(first)
        }
        return attachments.indices.filter { !dropped.contains($0) }.map { attachments[$0] }
    }
}
