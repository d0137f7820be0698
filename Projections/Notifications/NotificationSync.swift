import EventModel

/// The sync a decision belongs to, as recorded in the log: its time (never the wall clock at fold time),
/// whether it ran in the foreground, whether it was the account's first or the first of a session (the app
/// just launched), the folder role the user is looking at, and the local time offset for quiet hours.
public struct NotificationSync: Equatable, Sendable {
    /// The sync's time.
    public var time: Timestamp
    /// True for a background sync (recency 1 hour instead of 5 minutes).
    public var background: Bool
    /// True for the account's first sync: nothing is posted, however many emails (reason `first-sync`).
    public var isFirstSync: Bool
    /// True for the first sync of a session (the spec's `isFirstLaunch`: the watch or app just started):
    /// what it finds is suppressed however many and however new (reason `session-start`), so a restart after
    /// a while away does not flood.
    public var isSessionStart: Bool
    /// The folder role the user is looking at (its new mail gives no banner); nil when none.
    public var activeFolder: FolderRole?
    /// Seconds east of UTC of the local time at `time` (quiet hours are local).
    public var utcOffsetSeconds: Int

    /// Creates a sync context.
    public init(time: Timestamp, background: Bool = false, isFirstSync: Bool = false, isSessionStart: Bool = false,
                activeFolder: FolderRole? = nil, utcOffsetSeconds: Int = 0) {
        self.time = time
        self.background = background
        self.isFirstSync = isFirstSync
        self.isSessionStart = isSessionStart
        self.activeFolder = activeFolder
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The local minute of the day at `time`.
    public var localMinute: UInt32 {
        let seconds = time.microseconds / 1_000_000 + Int64(utcOffsetSeconds)
        let day: Int64 = 86_400
        return UInt32(((seconds % day) + day) % day / 60)
    }

    /// The oldest an email may be to get a banner: 5 minutes in the foreground, 1 hour in the background.
    public var recencyMicroseconds: Int64 { (background ? 3_600 : 300) * 1_000_000 }
}
