import EventLog
import EventModel
import LMDB
import Projections
import Views

// The lower-level types that are part of the library's API: what its methods take and return. Callers
// (the CLI among them) import `MailStore` alone.

/// A typed event (the log's payloads).
public typealias DomainEvent = EventModel.DomainEvent
/// An event as stored, with its envelope.
public typealias StoredEvent = EventModel.StoredEvent
/// An event's type.
public typealias EventType = EventModel.EventType
/// An event's id.
public typealias EventID = EventModel.EventID
/// A point in time (microseconds since 1970).
public typealias Timestamp = EventModel.Timestamp
/// A blob's SHA-256.
public typealias BlobHash = EventModel.BlobHash
/// An address in an email or a draft.
public typealias EmailAddress = EventModel.EmailAddress
/// A thread's category.
public typealias AICategory = EventModel.AICategory
/// An account's configuration as stored (no secret).
public typealias AccountAdded = EventModel.AccountAdded
/// Where an account's servers came from when they were looked up (the discovery cache).
public typealias AccountSettingsDiscovered = EventModel.AccountSettingsDiscovered
/// A draft's version.
public typealias DraftSaved = EventModel.DraftSaved
/// A stream (entity) name.
public typealias StreamName = EventModel.StreamName
/// The store folder.
public typealias StoreDirectory = EventLog_StoreDirectory
/// The log's size and counts.
public typealias LogStats = EventLog_LogStats
/// What `EventLog.verify` found.
public typealias VerifyReport = EventLog_VerifyReport
/// Which events a scan yields.
public typealias ScanFilter = EventLog_ScanFilter
/// The views by name.
public typealias ViewName = Projections.ViewName
/// An action and its progress to the server.
public typealias ActionRecord = Projections.ActionRecord
/// The kinds of thread action (archive, delete, read, unread, star, unstar, move).
public typealias ActionKind = Projections.ActionKind
/// A draft's latest version and account.
public typealias DraftRecord = Projections.DraftRecord
/// A draft's copies in the server's Drafts folder and how putting them there went.
public typealias DraftServerState = Projections.DraftServerState
/// What happened to a draft's server copy (an event payload).
public typealias DraftCopyChanged = EventModel.DraftCopyChanged
/// A message on its way out.
public typealias OutboxItem = Projections.OutboxItem
/// An account's sending paused for its server (its last attempt was not served) until a time.
public typealias OutboxPause = Projections.OutboxPause
/// A contact seen in an account's mail.
public typealias Contact = Projections.Contact
/// A copy of a message (dedup view).
public typealias DedupCopy = Projections.DedupCopy
/// A folder as the folders view holds it.
public typealias FolderEntry = Projections.FolderEntry
/// A folder's sync checkpoint.
public typealias FolderSyncState = Projections.FolderSyncState
/// A message a folder's sync gave up as unfetchable, with when it is tried again.
public typealias UnfetchableMessage = Projections.UnfetchableMessage
/// An event the views could not fold.
public typealias QuarantinedEvent = Views.QuarantinedEvent
/// The state of the views on disk.
public typealias ViewsStatus = Views.ViewsStatus
/// A difference between the live views and a rebuild.
public typealias ViewDifference = ViewStore.Difference

/// A log or view file that is shorter than its own pages say (truncated): what is wrong and what to do.
public typealias DataFileError = LMDB.DataFileError
