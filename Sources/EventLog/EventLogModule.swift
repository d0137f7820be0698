// The module's API types under names other modules can reach when they shadow them: `EventLog` is also the
// log class's name, so `EventLog.ScanFilter` cannot name the module's `ScanFilter` from outside, and the
// `MailStore` library re-exports these types under their own names.

/// `StoreDirectory`, for re-export.
public typealias EventLog_StoreDirectory = StoreDirectory
/// `LogStats`, for re-export.
public typealias EventLog_LogStats = LogStats
/// `VerifyReport`, for re-export.
public typealias EventLog_VerifyReport = VerifyReport
/// `ScanFilter`, for re-export.
public typealias EventLog_ScanFilter = ScanFilter
