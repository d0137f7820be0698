extension DomainEvent {
    /// The typed payload as an `Encodable` value (for JSON output); nil for unknown types.
    package var payloadValue: (any Encodable)? {
        switch self {
        case .storeInitialized(let p): p
        case .accountAdded(let p): p
        case .accountRemoved(let p): p
        case .accountSettingsDiscovered(let p): p
        case .folderDiscovered(let p): p
        case .folderRemoved(let p): p
        case .uidValidityChanged(let p): p
        case .folderSyncCheckpointed(let p): p
        case .emailReceived(let p): p
        case .flagsChanged(let p): p
        case .emailExpunged(let p): p
        case .emailCategorized(let p): p
        case .senderCategoryLearned(let p): p
        case .threadArchived(let p): p
        case .threadDeleted(let p): p
        case .threadMarkedRead(let p): p
        case .threadMarkedUnread(let p): p
        case .threadStarred(let p): p
        case .threadUnstarred(let p): p
        case .threadMoved(let p): p
        case .actionApplied(let p): p
        case .actionFailed(let p): p
        case .actionRejected(let p): p
        case .flagRejected(let p): p
        case .actionReverted(let p): p
        case .actionUndone(let p): p
        case .draftSaved(let p): p
        case .draftDeleted(let p): p
        case .messageQueued(let p): p
        case .sendStarted(let p): p
        case .messageSent(let p): p
        case .sendFailed(let p): p
        case .sendUndone(let p): p
        case .sendCancelled(let p): p
        case .draftCopyChanged(let p): p
        case .messagePartlySent(let p): p
        case .notificationDelivered(let p): p
        case .notificationPreferenceChanged(let p): p
        case .notificationDecided(let p): p
        case .notificationWithdrawn(let p): p
        case .unknown: nil
        }
    }
}
