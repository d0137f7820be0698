import EventLog
import EventModel
import Foundation
import IMAPClient
import IMAPProtocol
import Projections
import SecureTransport
import SyncCore
import Views

/// The IMAP sync engine of one account: the log's main writer.
///
/// It maps the server's folders, then for each folder records what is new (`EmailReceived`, fetched
/// with BODY.PEEK[] newest first), changed (`FlagsChanged`, from CONDSTORE CHANGEDSINCE) and gone
/// (`EmailExpunged`, from QRESYNC VANISHED or a UID SEARCH diff). Every committed batch carries the
/// folder's `FolderSyncCheckpointed` in the same transaction, so a killed sync resumes exactly where it
/// stopped; event ids derived from (folder, UIDVALIDITY, UID) make a repeated batch append nothing.
/// Its state comes from the `sync` view, which any rebuild recreates from the log.
public final class SyncEngine {
    let store: MailStore
    var views: ViewStore { get throws { try store.views() } }
    let account: AccountAdded
    let provider: Provider
    let options: SyncOptions
    let identity: Identity
    let workers: [MessageIngest]
    /// The version of the account's learned sender rules stream (`MailStore.senderRulesStream`) the workers'
    /// categorizer holds: a newer one (a `categorize --as` since, here or in another process) is read before the next
    /// batch is categorized (``SyncEngine/refreshCategorizer()``).
    var categorizerRulesVersion: UInt64 = 0
    /// The log's head when the workers' categorizer read the contacts view (correspondents, aliases).
    var categorizerPeopleAt: UInt64 = 0
    /// True once this run (``syncAll()``, ``sync(role:)``) looked whether the contacts view moved on.
    var categorizerPeopleChecked = false
    /// When the categorizer's people were last read (`DispatchTime`'s uptime, ns).
    var categorizerPeopleReadAt = DispatchTime.now().uptimeNanoseconds
    /// The least time between two reads of the categorizer's people (seconds): each reads every contact of the account
    /// in one transaction (10^5 at a million messages, hundreds of milliseconds), and the log moves on nearly every run of
    /// a watch (its own appends). Tests set 0.
    package var categorizerPeopleInterval: Double = 300
    /// True once the account has a blob dictionary or a batch big enough to train one was tried.
    var dictionaryDecided = false
    /// One id for every event of this run.
    let correlation = EventID.generate()
    var connection: IMAPConnection?
    var qresyncEnabled = false
    /// Why the refresh after a refused OAuth login failed (told as the credential's failure, not the server's).
    var refreshFailure: AccountError?
    /// The folders of the last listing.
    var mapped: [MappedFolder] = []
    /// The paths of the last listing recorded as names whose mailbox does not exist (``recordGone(_:)``): a listing
    /// that names them again records nothing, an EXAMINE that opens one records it found again
    /// (``rediscoverIfGhost(_:)``).
    var ghosts: Set<String> = []
    /// The folders synced in this run (``syncAll()`` or ``sync(role:)``): each once.
    var syncedInRun: Set<String> = []
    /// The reports of folders synced ahead of the folder that named them (the destinations of its moved mail,
    /// ``SyncEngine/destinationsAhead(of:gone:)``), handed to the run's report before that folder's.
    var reportsAhead: [FolderSyncReport] = []
    /// The destinations synced ahead of a folder that the server refused (``isFolderRefusal(_:)``), handed to the run's
    /// report with it.
    var failedAhead: [FolderSyncFailure] = []
    /// Checkpoints of folders this run found with nothing else to record (an empty folder's first sync, say), committed
    /// together (``gather(_:)``, ``commitGathered()``) instead of one commit (an fdatasync) each. A kill loses at most
    /// these: the next run examines those folders again, nothing else is lost.
    var gathered: [NewEvent] = []
    /// The STATUS of each mailbox that came with this run's LIST (LIST-STATUS, RFC 5819, asked only when CONDSTORE is
    /// advertised too), by wire name: a folder whose STATUS equals its checkpoint is passed without its EXAMINE
    /// (``pass``). Each is used once, by the folder's first pass of ``syncAll()``; dropped when the run's write-back or
    /// Sent filing changed the server after the LIST, and never used by ``sync(role:)``.
    var listedStatus: [[UInt8]: [String: UInt64]] = [:]
    /// The personal namespace's root the last listing left out (``withoutNamespaceRoot(_:prefix:conn:)``); nil: none.
    var skippedRoot: NamespaceRootSkip?
    /// A poll of every folder under way in slices (``pollSlice(folders:seconds:)``); nil: none.
    var poll: PollInProgress?
    /// A watch's folders refused again and again, each tried with a backoff in ``syncAll()`` (nil: every folder tried).
    var folderRetry: FolderRetry?
    /// How long a sync waits for another process's sync of the same account (30 s) before giving up.
    public var lockWaitSeconds = 30.0
    /// The account's sync lock while a sync or write-back of this engine runs.
    var accountLock: AccountLock?
    /// Where the engine's connections come from (the process's pool unless a test gives another).
    package var pool: ConnectionPool<IMAPConnection> = SyncEngine.connections
    /// How long ``connect()`` waits for room in the pool; nil: the pool's queue timeout (30 s).
    package var poolWaitSeconds: Double?
    /// The wall clock the scheduled retry of messages given up as unfetchable goes by (tests give another).
    package var clock: () -> Timestamp = { Timestamp.now }
    /// The most events a folder's pass appends in one transaction for its flag changes and expunges (its checkpoint
    /// with the last of them): 5,000 by default, so another client marking a million messages read is 200 appends
    /// of bounded size, not one of a million events held in memory together (tests give fewer).
    package var eventsPerCommit = 5_000
    /// The most events one such append of this engine held (tests read it).
    package internal(set) var largestChangeCommit = 0
    /// Called with (folder, messages done, messages to fetch) as a folder's new mail arrives.
    public var progress: ((String, Int, Int) -> Void)?

    /// An engine for `account` writing into `store` (its views are kept caught up as batches commit).
    public init(store: MailStore, account: AccountAdded, options: SyncOptions = SyncOptions()) throws {
        self.store = store
        self.account = account
        self.provider = ProviderRegistry.provider(id: account.provider)
        self.options = options
        identity = try Identity()
        let n = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        // Read before the categorizer's inputs: anything appended meanwhile is read again before it is needed.
        categorizerRulesVersion = try store.log.streamVersion(MailStore.senderRulesStream(account: account.name))
        categorizerPeopleAt = try store.head().sequence
        let categorizer = try store.categorizer(account: account.name, ownAddresses: [account.email])
        let dictionary = try store.log.blobDictionary(account: account.name)
        dictionaryDecided = dictionary != nil
        workers = try (0..<n).map { _ in try MessageIngest(account: account.name, categorizer: categorizer, dictionary: dictionary) }
    }

    /// Connects, syncs the folders and logs out.
    public func run() throws -> SyncReport {
        defer { disconnect() }
        return try syncAll()
    }

    /// Syncs the folder list and every selected folder, keeping the connection open for the next call.
    public func syncAll() throws -> SyncReport {
        try exclusively { try syncAllLocked() }
    }

    private func syncAllLocked() throws -> SyncReport {
        let conn = try connect()
        var run = try startRun(conn)
        defer { listedStatus = [:] }
        try committingGathered {
            while !run.isDone { try syncNext(of: &run, conn) }
        }
        return try finishRun(run, conn)
    }

    /// The start of a run of every folder (``syncAll()``, or a poll in slices): the folder list and what changed in it
    /// recorded, the user's pending actions written back, Sent filings completed; the folders to sync, in order.
    func startRun(_ conn: IMAPConnection) throws -> PollInProgress {
        let start = Deadline.now()
        var report = SyncReport(account: account.name)
        let folders = try discoverFolders(conn, report: &report)
        mapped = folders
        // The user's pending actions go first, so the flags read next already include them.
        report.actions = try writeBack()
        // Sent messages not yet filed in Sent (sent before the folders were known, or the APPEND failed).
        // The folders were just listed: no other LIST for it, and nothing tried while the listing holds no Sent folder.
        let filing = try OutboxUseCase(store: store).completeSentFilings(account: account.name, discover: false)
        report.sentFiled = filing.filed.count
        report.sentUnfiled = filing.unfiled
        report.sentUnfiledReason = filing.reason
        // Those changed the server after the LIST (anything tried: a failed move may have moved): its STATUS answers
        // may be out of date. (Actions only waiting touched nothing.)
        if report.sentFiled > 0 || report.actions.triedAny { listedStatus = [:] }
        syncedInRun = []
        reportsAhead = []
        failedAhead = []
        categorizerPeopleChecked = false
        folderRetry?.keep(only: Set(folders.map(\.path)))
        let chosen = try selected(folders, report: &report)
        return PollInProgress(folders: chosen, report: report, start: start)
    }

    /// Syncs the next folder of `run` (and steps past it). A folder synced ahead of another, as the destination of its
    /// moved mail, is not synced again; one a watch found refused again and again waits its backoff (``FolderRetry``).
    func syncNext(of run: inout PollInProgress, _ conn: IMAPConnection) throws {
        let folder = run.folders[run.next]
        run.next += 1
        guard !syncedInRun.contains(folder.path) else { return }
        if let folderRetry, !folderRetry.isDue(folder.path) { return }
        try syncOrSkip(folder, conn, into: &run.report)
    }

    /// The end of a run of every folder: Gmail's kept copies checked; the run's report.
    func finishRun(_ run: PollInProgress, _ conn: IMAPConnection) throws -> SyncReport {
        var report = run.report
        // Gmail: what was kept in All Mail and is no longer there.
        if let kept = try keptCopiesGone(connection ?? conn), kept.expunged > 0 { report.folders.append(kept) }
        report.seconds = Deadline.now() - run.start
        return report
    }

    /// Syncs `folder` into `report`; a folder the server refuses (``isFolderRefusal(_:)``) is skipped and named in
    /// ``SyncReport/failedFolders``, so one folder the client cannot open (no read right, deleted between the LIST
    /// and its EXAMINE) never stops the others: they had never been reached, the Inbox among them, and a watch had
    /// ended for good. Any other error (a lost connection, a protocol error, a full disk) fails the sync as before.
    ///
    /// A folder the server says does not exist while its LIST still names it (``isFolderGone(_:)``: Dovecot lists a
    /// parent deleted while it has children, without `\Noselect`) is no refusal: its copies are recorded expunged and the
    /// folder removed (``recordGone(_:)``), as for a folder gone from the LIST; once nothing of it is left it is passed.
    private func syncOrSkip(_ folder: MappedFolder, _ conn: IMAPConnection, into report: inout SyncReport) throws {
        do {
            let r = try sync(folder, conn)
            report.folders += reportsAhead + [r]
        } catch where SyncEngine.isFolderGone(error) {
            report.folders += reportsAhead
            if let gone = try recordGone(folder.path) { report.folders.append(gone) }
        } catch where SyncEngine.isFolderRefusal(error) {
            report.folders += reportsAhead
            report.failedFolders.append(FolderSyncFailure(folder: folder.path, error: error))
        }
        report.failedFolders += failedAhead
        reportsAhead = []
        failedAhead = []
    }

    /// Whether `error` is the server's refusal of one folder's command (a NO to its EXAMINE, UID SEARCH or UID FETCH,
    /// `[UNAVAILABLE]` and `[INUSE]` ones included): the connection still works and the account's other folders can be
    /// synced. A BAD (the client's fault), a protocol error or a lost connection is not one.
    static func isFolderRefusal(_ error: any Error) -> Bool {
        guard case SyncError.server(let e) = error else { return false }
        switch e {
        case .commandFailed(_, let status, _): return status == "NO"
        case .temporarilyUnavailable: return true
        default: return false
        }
    }

    /// Whether `error` is the server's word that a folder's mailbox does not exist: a NO to its EXAMINE or SELECT with
    /// `[NONEXISTENT]` (RFC 5530), or, without a code, a text that says so ("Mailbox doesn't exist", Dovecot's; "Mailbox
    /// does not exist"). Dovecot keeps listing a parent deleted while it has children (`* LIST () "/" P`, never
    /// `\Noselect`) and answers its EXAMINE so. A refusal of rights (`[NOPERM]`) or any other NO is not one.
    package static func isFolderGone(_ error: any Error) -> Bool {
        guard case SyncError.server(.commandFailed(let command, "NO", let text)) = error,
              command == "EXAMINE" || command == "SELECT" else { return false }
        if text.hasPrefix("[NONEXISTENT]") { return true }
        let lower = text.lowercased()
        return lower.hasPrefix("mailbox doesn't exist") || lower.hasPrefix("mailbox does not exist")
    }

    /// Syncs the folders with `role` only (e.g. the Inbox after IDLE reported a change), from the last folder list.
    public func sync(role: FolderRole) throws -> SyncReport {
        try exclusively { try syncLocked(role: role) }
    }

    private func syncLocked(role: FolderRole) throws -> SyncReport {
        let start = Deadline.now()
        var report = SyncReport(account: account.name)
        let conn = try connect()
        syncedInRun = []
        reportsAhead = []
        failedAhead = []
        listedStatus = [:]
        categorizerPeopleChecked = false
        // (No folder backoff here: a watch syncs the Inbox on its changes, and a refused Inbox fails the watch's own
        // SELECT next, which reconnects with the session's backoff.)
        try committingGathered {
            for folder in mapped where folder.role == role && !syncedInRun.contains(folder.path) {
                try syncOrSkip(folder, conn, into: &report)
            }
        }
        report.seconds = Deadline.now() - start
        return report
    }

    /// The engine's connection: leased from ``pool`` (an idle one of this account reused, or a new one opened
    /// once the account's and the process's limits allow; see ``ConnectionPool``) and kept until ``disconnect()``.
    /// Throws ``SyncError/connectionsBusy(_:)`` when none came free within the pool's queue timeout, and the
    /// ``SyncError/server(_:)`` timeout of an idle connection's probe the server did not answer (no other connection
    /// is opened then: a server that stopped answering holds a new one's opening as long).
    func connect() throws -> IMAPConnection {
        if let connection { return connection }
        let conn: IMAPConnection
        do {
            conn = try pool.lease(account: poolAccount, reuseKey: poolReuseKey, limits: poolLimits, waitSeconds: poolWaitSeconds) { try open() }
        } catch let timeout as ConnectionPoolTimeout {
            throw SyncError.connectionsBusy(timeout)
        } catch let unanswered as IMAPClientError {
            // The probe of an idle connection the server left unanswered (no new connection was opened after it).
            throw SyncError.server(unanswered)
        }
        qresyncEnabled = conn.isEnabled("QRESYNC")
        connection = conn
        return conn
    }

    /// Opens and authenticates a connection (TLS or STARTTLS as configured; never plaintext), and enables
    /// QRESYNC when offered.
    private func open() throws -> IMAPConnection {
        guard let security = ConnectionSecurity(rawValue: account.imapSecurity), security != .plain,
              let port = UInt16(exactly: account.imapPort) else {
            throw SyncError.server(.insecureAuthentication)
        }
        let endpoint = ServerEndpoint(host: account.imapHost, port: port, security: security, caFile: account.caFile,
                                      timeoutSeconds: options.timeoutSeconds, commandTimeoutSeconds: options.commandTimeoutSeconds)
        guard let source = store.credentialSource(of: account) else {
            throw SyncError.credential(.invalid("the account's credential source \"\(account.credentialSource)\" is not understood"))
        }
        let secret: String
        do { secret = try source.secret(caFile: account.caFile, timeoutSeconds: options.timeoutSeconds) } catch { throw SyncError.credential(error) }
        let mechanism = AuthMechanism(rawValue: account.auth) ?? .plain
        do {
            let conn = try IMAPConnection.connect(endpoint, trace: options.trace)
            let credential: Credential = mechanism.isOAuth || source.isOAuth ? .oauth2Token(secret) : .password(secret)
            do {
                if source.isOAuth {
                    try authenticateOAuth(conn, source: source, token: secret)
                } else {
                    try conn.authenticate(username: account.username, credential: credential, mechanism: mechanism)
                }
            } catch .mechanismUnavailable where mechanism == .plain && !source.isOAuth {
                // A server without AUTH=PLAIN: LOGIN is the fallback (still only over TLS).
                try conn.authenticate(username: account.username, credential: credential, mechanism: .login)
            }
            _ = try conn.id(["name": "mailstore", "version": MailStore.version])
            if conn.has("QRESYNC") { _ = try conn.enable(["QRESYNC"]) }
            return conn
        } catch {
            // The server refused the token and a new one could not be had: that is the credential's failure.
            if let refreshFailure { self.refreshFailure = nil; throw SyncError.credential(refreshFailure) }
            throw SyncError.server(error)
        }
    }

    /// Logs in with an OAuth access token: OAUTHBEARER when offered, else XOAUTH2; on a refusal the token
    /// is refreshed and the login tried once more (the server may have expired or revoked it early).
    private func authenticateOAuth(_ conn: IMAPConnection, source: CredentialSource, token: String) throws(IMAPClientError) {
        let offered = conn.capabilities.filter { $0.hasPrefix("AUTH=") }.map { String($0.dropFirst(5)) }
        let mechanism = AuthMechanism.oauth(offered: offered) ?? .xoauth2
        do {
            try conn.authenticate(username: account.username, credential: .oauth2Token(token), mechanism: mechanism)
        } catch .authenticationFailed(let text) {
            let fresh: String
            do {
                fresh = try source.oauthAccessToken(forceRefresh: true, refused: token, caFile: account.caFile,
                                                    timeoutSeconds: options.timeoutSeconds)
            } catch {
                refreshFailure = error
                throw .authenticationFailed("\(text); \(error)")
            }
            try conn.authenticate(username: account.username, credential: .oauth2Token(fresh), mechanism: mechanism)
        }
    }

    /// Gives the connection back to the pool: kept idle for this account's next use when it still works (closed
    /// after the idle time; see ``ConnectionPool``), else closed.
    public func disconnect() {
        guard let connection else { return }
        self.connection = nil
        pool.release(connection, account: poolAccount, reuseKey: poolReuseKey, limits: poolLimits)
    }

    deinit { disconnect() }

    /// The folders to sync: those named in the options, in the user's order; else all, in ``syncOrder(_:)``. The namespace's
    /// root named while the listing left it out (``skippedRoot``: empty, or the Inbox under another name) is passed and put
    /// in `report` (``SyncReport/namespaceRootNotSynced``), as a folder with nothing to sync; any other name not listed throws.
    func selected(_ folders: [MappedFolder], report: inout SyncReport) throws -> [MappedFolder] {
        guard let wanted = options.folders else { return SyncEngine.syncOrder(folders) }
        return try wanted.compactMap { name in
            let match = folders.first { $0.path == name || ($0.path == "INBOX" && name.uppercased() == "INBOX") }
            if match == nil, let root = skippedRoot, root.folder == name {
                if report.namespaceRootNotSynced == nil { report.namespaceRootNotSynced = root }
                return nil
            }
            guard let match else { throw SyncError.folderNotFound(name, available: folders.map(\.path)) }
            return match
        }
    }

    /// Lists and maps the server's folders and records what changed (`FolderDiscovered`, `FolderRemoved`); each
    /// folder removed is added to `report.folders` (``FolderSyncReport/removed``, with the copies expunged).
    func discoverFolders(_ conn: IMAPConnection, report: inout SyncReport) throws -> [MappedFolder] {
        // With LIST-STATUS (and CONDSTORE: without a mod-sequence a folder's flags cannot be known unchanged) each
        // folder's STATUS comes with the LIST: one command instead of an EXAMINE per unchanged folder.
        let asked: [StatusAttribute] = conn.has("LIST-STATUS") && (conn.has("CONDSTORE") || conn.has("QRESYNC"))
            ? [.uidValidity, .uidNext, .messages, .highestModSeq] : []
        let listed: (items: [ListItem], statuses: [[UInt8]: [String: UInt64]])
        do { listed = try conn.list(status: asked) } catch { throw SyncError.server(error) }
        let items = listed.items
        listedStatus = listed.statuses
        // The mailbox this session has selected: Dovecot answers its STATUS from the session's open view, stale after
        // another client deleted and recreated it (its old UIDVALIDITY): it is examined.
        if let open = conn.selectedMailbox { listedStatus[open.raw] = nil }
        let knownList = try store.latestViews().folders(account: account.name)
        // Names recorded with no mailbox (``recordGone(_:)``) take no role by their name: a real folder has it.
        let noMailbox = Set(knownList.filter { !$0.selectable }.map(\.path))
        // The provider's names and tier 3's top level are taken below the personal namespace's prefix (`INBOX.`, `Mail/`).
        let prefix: String?
        do { prefix = try conn.personalNamespacePrefix() } catch { throw SyncError.server(error) }
        let listedAll: [MappedFolder]
        do {
            listedAll = try FolderMapper.map(items, provider: provider, namespacePrefix: prefix, noMailbox: noMailbox)
        } catch { throw SyncError.noEmailFolders }
        // The prefix listed as a folder of its own (Dovecot's `Mail` under `Mail/`) is synced only when it holds mail of its own.
        let mappedAll = try withoutNamespaceRoot(listedAll, prefix: prefix, conn: conn)
        // One folder per path, however often the server lists it (or names that map to the same path). Names equal but for
        // their Unicode form (NFC "Café", NFD "Café") are one name to Swift's strings, which the folds' tables keep them
        // in, and two names to the server and the views' keys: grouped by name as Swift's strings take it, in LIST order,
        // one folder of each group is synced (the one the views know, else the first listed) and the others named
        // (`foldersAlike`); one the views know only in the other form keeps the form they know (its wire name is the
        // server's). Both had been merged in the unread counts by batch, the second folder's mail never fetched, its
        // actions counted applied; a folder that changed form was never discovered nor removed.
        var order: [String] = []
        var groups: [String: [MappedFolder]] = [:]
        for f in mappedAll {
            if groups[f.path] == nil { order.append(f.path) }
            groups[f.path, default: []].append(f)
        }
        let knownBytes = Set(knownList.map { Array($0.path.utf8) })
        let known = Dictionary(knownList.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var folders: [MappedFolder] = []
        for key in order {
            var distinct: [MappedFolder] = []
            var bytes = Set<[UInt8]>()
            for f in groups[key] ?? [] where bytes.insert(Array(f.path.utf8)).inserted { distinct.append(f) }
            guard let first = distinct.first else { continue }
            var chosen = distinct.first { knownBytes.contains(Array($0.path.utf8)) } ?? first
            for f in distinct where !f.path.utf8.elementsEqual(chosen.path.utf8) { report.foldersAlike.append(f.path) }
            // (Only a name the views do not know byte for byte takes their form: a store that knows both keeps each.)
            if !knownBytes.contains(Array(chosen.path.utf8)), let form = known[chosen.path]?.path { chosen.path = form }
            folders.append(chosen)
        }
        var events: [NewEvent] = []
        var removed: [FolderSyncReport] = []
        ghosts = noMailbox
        for f in folders {
            if let k = known[f.path], k.role == f.role, k.displayName == f.displayName { continue }
            // A name recorded as no mailbox is left to its EXAMINE (``rediscoverIfGhost(_:)``): the LIST names it still.
            if ghosts.contains(f.path) { continue }
            if let k = known[f.path], k.role != f.role { report.roleChanges.append(FolderRoleChange(folder: f.path, from: k.role, to: f.role)) }
            events.append(event(.folderDiscovered(FolderDiscovered(folder: f.path, displayName: f.displayName, role: f.role,
                                                                   delimiter: f.delimiter, attributes: f.attributes)),
                                stream: folderStream(f.path)))
        }
        if options.folders == nil {
            // By bytes: a store that knows a folder in two Unicode forms (synced before they were told apart) has each
            // removed on its own.
            let present = Set(folders.map { Array($0.path.utf8) })
            for entry in knownList.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) })
                where !present.contains(Array(entry.path.utf8)) {
                let path = entry.path
                // Folders this engine synced, or empty ones; never a folder with imported mail under the same account name.
                let synced = try views.syncState(account: account.name, folder: path) != nil
                let total = try views.unreadCount(account: account.name, folder: path, category: UnreadProjector.totalCategory)
                guard synced || total == 0 else { continue }
                let (gone, goneEvents) = try removal(of: path, role: entry.role)
                events += goneEvents
                removed.append(gone)
            }
        }
        try store.commit(events)
        report.folderEvents = events.count
        // Reported once committed (the summary had said "0 expunged" and named no folder).
        report.folders += removed
        return folders
    }

    /// The events that record `path` removed (its copies expunged, then `FolderRemoved`) and its report.
    func removal(of path: String, role: FolderRole) throws -> (FolderSyncReport, [NewEvent]) {
        var gone = FolderSyncReport(folder: path, role: role.description)
        gone.removed = true
        var events: [NewEvent] = []
        for copy in try views.syncedCopies(account: account.name, folder: path).values.sorted(by: { $0.uid < $1.uid }) {
            events.append(expunged(copy, folder: path))
            gone.expunged += 1
        }
        events.append(event(.folderRemoved(FolderRemoved(folder: path)), stream: folderStream(path)))
        return (gone, events)
    }

    /// Records `path` removed (``removal(of:role:)``) when the server said its mailbox does not exist while its LIST
    /// still names it (``isFolderGone(_:)``) and the store holds something of it (a sync state or copies): its mail
    /// recorded gone, as for a folder gone from the LIST, at once; then the name is recorded as one with no mailbox
    /// (`FolderDiscovered` with `\NonExistent`, role custom: the folders view lists it only above its subfolders, never
    /// as an empty folder), once. Nil when nothing of its mail was left: the folder passed (no refusal, no error).
    func recordGone(_ path: String) throws -> FolderSyncReport? {
        let views = try self.views
        guard let entry = try views.folders(account: account.name).first(where: { $0.path.utf8.elementsEqual(path.utf8) }),
              entry.selectable else { return nil }
        var gone: FolderSyncReport?
        var events: [NewEvent] = []
        if try views.syncState(account: account.name, folder: path) != nil || views.syncedCount(account: account.name, folder: path) > 0 {
            let (removed, removalEvents) = try removal(of: path, role: entry.role)
            gone = removed
            events = removalEvents
        }
        let listed = mapped.first { $0.path.utf8.elementsEqual(path.utf8) }
        events.append(event(.folderDiscovered(FolderDiscovered(folder: path, displayName: entry.displayName, role: .custom,
                                                               delimiter: listed?.delimiter,
                                                               attributes: (listed?.attributes ?? []) + [SyncEngine.nonExistent])),
                            stream: folderStream(path)))
        try store.commit(events)
        ghosts.insert(path)
        // (Counted in the folder's report: the account's `folderEvents` are those of the listing.)
        gone?.events = events.count
        syncedInRun.insert(path)
        return gone
    }

    /// The LIST attribute recorded for a name whose mailbox does not exist (RFC 5258).
    static let nonExistent = "\\NonExistent"

    /// Records `folder` found again (`FolderDiscovered` as listed) when it was recorded as a name with no mailbox
    /// (``recordGone(_:)``) and its EXAMINE has just opened it: a mailbox made again under that name.
    func rediscoverIfGhost(_ folder: MappedFolder) throws {
        guard ghosts.contains(folder.path) else { return }
        try store.commit([event(.folderDiscovered(FolderDiscovered(folder: folder.path, displayName: folder.displayName, role: folder.role,
                                                                   delimiter: folder.delimiter, attributes: folder.attributes)),
                                stream: folderStream(folder.path))])
        ghosts.remove(folder.path)
    }

    // MARK: - Events

    func folderStream(_ path: String) -> StreamName { StreamName.folder(account: account.name, path: path) }

    func event(_ e: DomainEvent, stream: StreamName, id: EventID = .generate()) -> NewEvent {
        NewEvent(id: id, event: e, account: account.name, stream: stream, correlationID: correlation, actor: .sync)
    }

    func expunged(_ copy: SyncedCopy, folder: String) -> NewEvent {
        event(.emailExpunged(EmailExpunged(emailID: copy.emailID, folder: folder, uid: copy.uid)),
              stream: .email(copy.emailID), id: identity.eventID("EmailExpunged", account.name, copy.emailID))
    }

    func checkpoint(_ folder: String, _ s: FolderSyncState) -> NewEvent {
        event(.folderSyncCheckpointed(FolderSyncCheckpointed(folder: folder, uidValidity: s.uidValidity, highestUID: s.highestUID,
                                                             uidNext: s.uidNext, highestModSeq: s.highestModSeq,
                                                             lowestUIDFetched: s.lowestUIDFetched, unfetchable: s.unfetchable,
                                                             givenUpAt: s.givenUp.map(\.givenUpAt), givenUpTimes: s.givenUp.map(\.times))),
              stream: folderStream(folder))
    }

}
