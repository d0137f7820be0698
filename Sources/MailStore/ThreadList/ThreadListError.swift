/// The client spec's thread-list errors.
public enum ThreadListError: Error, CustomStringConvertible {
    /// Reading the views failed.
    case fetchFailed(underlying: any Error)
    /// An action could not be applied.
    case actionFailed(underlying: any Error)
    /// No such thread.
    case threadNotFound(id: String)
    /// No such folder.
    case folderNotFound(id: String)
    /// A name the server lists with no mailbox behind it (only as the parent of its subfolders): nothing to list.
    case folderHoldsNoMail(id: String)

    public var description: String {
        switch self {
        case .fetchFailed(let e): "could not read the thread list: \(e)"
        // An action refused says why in its own words ("no action 'X'", "nothing to do: ..."); one recorded says so.
        case .actionFailed(let e as ActionError): "\(e)"
        case .actionFailed(let e as RecordedButNotFolded): "the action is \(e)"
        case .actionFailed(let e): "the action failed: \(e)"
        case .threadNotFound(let id): "no thread '\(id)'"
        case .folderNotFound(let id): "no folder '\(id)': `mailstore project --view folders` lists them"
        case .folderHoldsNoMail(let id):
            "'\(id)' holds no mail: the server lists it only as the parent of its subfolders (`parent` in `mailstore project --view folders`); name a subfolder"
        }
    }
}
