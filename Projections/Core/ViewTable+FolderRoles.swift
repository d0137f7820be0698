import EventModel

extension ViewTable where Value == FolderRole {
    /// True when `folder` of `account` has the Inbox role (`INBOX` counts as one until its role is known).
    package func isInbox(account: String, folder: String) throws -> Bool {
        if let role = try get(Key(account, folder).bytes) { return role == .inbox }
        return folder.uppercased() == "INBOX"
    }
}
