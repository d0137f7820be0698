/// Why a thread action cannot be taken, and what to do instead.
public enum ActionError: Error, CustomStringConvertible, Equatable {
    /// Archive on an account with no Archive-role folder (the spec's prompt).
    case noArchiveFolder
    /// Archive on a Gmail account whose `\All` folder (All Mail) is not known.
    case noAllMailFolder
    /// Delete on an account with no Trash-role folder.
    case noTrashFolder
    /// The threads of one batch belong to different accounts.
    case mixedAccounts([String])
    /// Nothing would change (e.g. archiving a thread that is not in the Inbox).
    case nothingToDo(String)
    /// No action has this id.
    case actionNotFound(String)
    /// The action was undone already.
    case alreadyUndone(String)
    /// Nothing of the action failed: there is nothing to retry.
    case nothingToRetry(String)
    /// One action was asked for more threads (or, of several threads, more email copies) than it takes:
    /// `ManageThreadActionsUseCase.batch` splits a selection into actions within the bounds.
    case tooLarge(threads: Int, copies: Int)
    /// The threads are mail of an account removed since: its server is no longer configured, so no action reaches it.
    case accountRemoved(String)
    /// A retry of a move whose folder is no longer there (deleted or renamed on the server since).
    case destinationGone(action: String, folder: String)
    /// An undo of an action a later one, not yet on the server, changed the same mail after: undo that one first.
    case laterActionFirst(action: String, later: String)

    public var description: String {
        switch self {
        case .noArchiveFolder: "No archive folder: move to a specific folder instead?"
        case .noAllMailFolder: "No All Mail folder (\\All) is known for this Gmail account: sync it first, or move to a specific folder instead"
        case .noTrashFolder: "No Trash folder: move to a specific folder instead?"
        case .mixedAccounts(let a): "one action works within one account; these threads are in \(a.joined(separator: ", "))"
        case .nothingToDo(let why): "nothing to do: \(why)"
        case .actionNotFound(let id): "no action '\(id)'; `mailstore actions` lists them"
        case .alreadyUndone(let id): "action \(id) was undone already"
        case .nothingToRetry(let id): "action \(id) has nothing that failed"
        case .laterActionFirst(let action, let later):
            "action \(action) was followed by action \(later) on the same mail, not yet on the server: undo \(later) first (the newest first), or sync and then undo"
        case .destinationGone(let action, let folder):
            "the folder \(folder) this move went to is no longer there (deleted or renamed on the server): move the threads to "
                + "another folder, or undo the action (`mailstore undo \(action)`) to take it off the failed list"
        case .accountRemoved(let name):
            "the account \"\(name)\" was removed: its mail stays in the store to read, but no action on it reaches its server; "
                + "add the account again (`mailstore account add \(name) ...`, the same server and login) to act on it"
        case .tooLarge(let threads, let copies):
            "one action takes at most \(ManageThreadActionsUseCase.maxThreadsPerAction) threads and, of several threads, "
                + "\(ManageThreadActionsUseCase.maxCopiesPerAction) email copies (asked: \(threads) threads, \(copies) copies): "
                + "take a larger selection as a batch, which splits it into several actions"
        }
    }
}
