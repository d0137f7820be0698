extension NotificationCoordinator {
    /// The user acted on the notification `identifier` (`email-<emailId>`): the thread action goes through
    /// the same use cases as anywhere else (`ManageThreadActionsUseCase`; a reply is a draft made with
    /// `DraftsUseCase` — "Re:" not doubled, In-Reply-To and References from the original — and queued with
    /// `OutboxUseCase`, sent by the next `sync`/`outbox send`), the thread's showing notifications are
    /// withdrawn (recorded), and the badge is read afterwards.
    public func respond(to identifier: String, action: NotificationAction, replyText: String = "") throws -> NotificationActionResult {
        guard identifier.hasPrefix("email-"), identifier.utf8.count <= 200 else {
            throw NotificationError.unknownNotification(identifier)
        }
        let emailID = String(identifier.dropFirst("email-".count))
        guard let email = try store.latestViews().emailRecord(id: emailID) else { throw NotificationError.unknownNotification(identifier) }
        let thread = email.threadID
        let actions = ManageThreadActionsUseCase(store: store)
        var withdrawn: [String] = []
        var draftID: String?
        switch action {
        case .markRead:
            try actions.markThreadsRead(ids: [thread])
            withdrawn = try didMarkThreadRead(threadID: thread)
        case .archive:
            try actions.archiveThread(id: thread)
            withdrawn = try didRemoveThread(threadID: thread)
        case .delete:
            try actions.deleteThread(id: thread)
            withdrawn = try didRemoveThread(threadID: thread)
        case .reply:
            let (draft, problems) = try DraftsUseCase(store: store).create(account: email.account, DraftInput(body: replyText, replyTo: emailID))
            guard problems.isEmpty else { throw NotificationError.replyNotSendable(problems) }
            _ = try OutboxUseCase(store: store).queue(draft.draftID, undoDelay: 0)
            draftID = draft.draftID
            withdrawn = try withdrawShowing(threadID: thread, reason: "replied")
        }
        let badge = try FetchThreadsUseCase(store: store).fetchBadgeCount()
        return NotificationActionResult(threadID: thread, withdrawn: withdrawn, badge: badge, draftID: draftID)
    }
}

extension NotificationCoordinator {
    /// Spec E-21: mutes of threads that no longer exist (every email of them expunged, or never seen) are
    /// removed, each as a recorded unmute. A muted thread merged into another since is not gone: its mute is carried
    /// to the thread that absorbed it (recorded as a mute of that one, then the unmute; spec AC-N-08). Run when a watch
    /// starts. Returns the threads unmuted.
    @discardableResult
    public func removeMutesOfGoneThreads() throws -> [String] {
        let views = try store.latestViews()
        var muted = try settings().mutedThreads
        let gone = try muted.sorted().filter { try views.thread(id: $0) == nil }
        for t in gone {
            if let survivor = try mutedNow([t], views: views).subtracting([t]).first, muted.insert(survivor).inserted {
                try record(.threadMuted, value: survivor)
            }
            try unmute(thread: t)
        }
        return gone
    }
}
