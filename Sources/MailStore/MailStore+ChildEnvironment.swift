import EventLog
import EventModel
import Foundation

extension MailStore {
    /// Keeps the variables every account of this store reads its secret from (`env:VAR`, IMAP and SMTP, of any account
    /// ever added) out of the environment of the commands this process starts (`ShellProcess.withhold`): a notify,
    /// withdraw or password command had got every account's secret. Read from the log's account streams (their
    /// `AccountAdded` events, found by the stream index: at most 10,000 accounts), not the views, so it holds from the
    /// store's open on, whatever the views' state; a log that cannot be read here fails its own reads later.
    func withholdCredentialVariables() {
        let prefix = StreamName.account("").rawValue
        guard let streams = try? log.streamNames(prefix: prefix) else { return }
        var names: [String] = []
        for stream in streams {
            let filter = ScanFilter(types: [.accountAdded], stream: .account(String(stream.dropFirst(prefix.count))))
            try? log.scanDecoded(filter: filter) { _, event in
                guard case .success(.accountAdded(let added)) = event else { return true }
                for stored in [added.credentialSource, added.smtpCredentialSource].compactMap({ $0 }) {
                    if case .environment(let name)? = CredentialSource(stored: stored) { names.append(name) }
                }
                return true
            }
        }
        ShellProcess.withhold(names)
    }
}
