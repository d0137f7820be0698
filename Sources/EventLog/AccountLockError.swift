/// Another process holds an account's lock.
package enum AccountLockError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `kind` work (e.g. `sync`) on `account` is held by process `holder` (when known); waited `waitedSeconds`.
    case held(kind: String, account: String, holder: Int32?, waitedSeconds: Double)

    package var description: String {
        switch self {
        case .held(let kind, let account, let holder, let waited):
            let who = holder.map { "process \($0)" } ?? "another mailstore process"
            return "\(who) is running \(kind) for account \"\(account)\" (waited \(Int(waited.rounded())) s): "
                + "let it finish or stop it, then run this again; nothing was changed"
        }
    }
}
