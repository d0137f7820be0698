import ArgumentParser
import Foundation
import MailStore

/// `mailstore backup DEST`: a consistent, compacted, verified copy of the log while the store is in use.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the store's log into a new folder while it is in use: compacted, verified, a store itself.",
        discussion: """
        DEST is made (mode 0700) or must be an empty folder, outside the store. It gets FORMAT and log/data.mdb \
        (0600): the log as of one commit, taken while syncs and imports go on. Views and the search index are not \
        copied: they are rebuilt from the log where the backup is used (--store DEST). OAuth token files are copied \
        only with --include-secrets. The copy is written into DEST/unverified/, verified there as `mailstore verify` \
        does (--no-verify skips it), and only then moved into DEST (FORMAT last). A backup killed midway, verifying \
        included, leaves DEST marked unfinished and without FORMAT: the next backup into it clears it first. \
        Exits 1 when the copy fails verification (the store's own log is then damaged too: run `mailstore verify`; \
        the copy stays in DEST/unverified/ for inspection), 2 when DEST is not empty, is a symbolic link or another \
        backup is writing into it, 3 when DEST cannot be made or written in (a read-only filesystem, an immutable \
        folder, no space or inodes: the message names the errno) or copying fails (what was written is removed), \
        64 when DEST is the store or inside it (through a bind mount too), its parent does not exist, or it is not yours.
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The folder to write the backup into (made if missing; else it must be empty).")
    var destination: String

    @Flag(name: .long, help: "Copy the OAuth token files (secrets/) too, mode 0600. Without it they are left out and counted.")
    var includeSecrets = false

    @Flag(name: .long, help: "Do not walk the copy afterwards (hash chain, records, indexes, blobs).")
    var noVerify = false

    @Flag(name: .long, help: "No progress bar.")
    var quiet = false

    @Flag(name: .long, help: "Print the report as JSON.")
    var json = false

    func run() throws {
        try CLIExit.run {
            let store = try MailStore.open(at: storeOptions.path, readOnly: true)
            let copying = ProgressBar("copying the log (MiB)", total: nil, quiet: quiet || json)
            let bar = ProgressBar("verifying the copy", total: nil, quiet: quiet || json || noVerify)
            var copied = false
            // A destination that cannot be one is exit 64 with why, without the usage text (`CLIExit.run`).
            let r = try store.backup(to: destination, includeSecrets: includeSecrets, verify: !noVerify, copyProgress: { done, total in
                copying.update(done >> 20, total: total >> 20)
            }, progress: { done, _ in
                if !copied {
                    copying.finish()
                    copied = true
                }
                bar.update(done)
            })
            if !copied { copying.finish() }
            bar.finish()
            let clean = r.verification?.isClean ?? true
            let hash = r.headHash.prefix(8).map { String(format: "%02x", $0) }.joined()
            if json {
                let v = r.verification
                let obj: [String: Any] = [
                    "destination": r.destination, "head": r.headSequence, "chain": r.headHash.map { String(format: "%02x", $0) }.joined(),
                    "sourceFileBytes": r.sourceFileBytes, "copyFileBytes": r.copyFileBytes,
                    "secretsCopied": r.secretsCopied, "secretsLeftOut": r.secretsLeftOut, "clearedUnfinished": r.clearedUnfinished,
                    "secretsSkipped": r.secretsSkipped.map { ["name": $0.name, "why": $0.why] },
                    "accountsWithSecretsOutside": r.accountsWithSecretsOutside,
                    "accountsWithSecretsOutsideUnlisted": r.accountsWithSecretsOutsideUnlisted as Any? ?? NSNull(),
                    "verified": v != nil, "clean": v.map { $0.isClean as Any } ?? NSNull(), "events": v.map { $0.eventsChecked as Any } ?? NSNull(),
                    "blobs": v.map { $0.blobsChecked as Any } ?? NSNull(), "problems": v?.problems.map(\.description) ?? [],
                    "copySeconds": r.copySeconds, "verifySeconds": r.verifySeconds,
                ]
                print(JSONText.string(try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])))
            } else {
                if r.clearedUnfinished { Terminal.print("\(r.destination) held a backup killed before it finished: cleared first") }
                Terminal.print("\(clean ? "Backed up to" : "Copied into") \(r.copyFolder): the log through sequence \(r.headSequence) (chain \(hash)…), "
                               + "\(StatsCommand.bytes(UInt64(r.copyFileBytes))) (the store's log file \(StatsCommand.bytes(UInt64(r.sourceFileBytes))), compacted), "
                               + String(format: "%.1f s", r.copySeconds))
                if let v = r.verification {
                    if v.isClean {
                        print("Verified: \(Counted.of(v.eventsChecked, "event")), \(Counted.of(v.blobsChecked, "blob")), hash chain and indexes"
                              + String(format: " (%.1f s)", r.verifySeconds))
                    } else {
                        for p in v.problems { Terminal.print("BAD \(p)") }
                    }
                } else {
                    print("Not verified (--no-verify): `mailstore verify --store DEST` walks it")
                }
                var left = ["views and the search index (rebuilt from the log where the backup is used)"]
                if r.secretsLeftOut > 0 { left.append("\(Counted.of(r.secretsLeftOut, "OAuth token file")) (--include-secrets copies them)") }
                print("Not copied: " + left.joined(separator: "; "))
                if r.secretsCopied > 0 { print("Copied \(Counted.of(r.secretsCopied, "OAuth token file")) (secrets/, mode 0600): keep the backup private") }
                if !r.accountsWithSecretsOutside.isEmpty {
                    Terminal.print("Not in the backup: the secret files of \(Counted.of(r.accountsWithSecretsOutside.count, "account")) kept outside the store "
                                   + "(\(r.accountsWithSecretsOutside.joined(separator: ", "))): a store restored from it reads them from the same paths")
                }
            }
            for s in r.secretsSkipped { Terminal.warning(s.description) }
            if let why = r.accountsWithSecretsOutsideUnlisted {
                Terminal.warning("the accounts whose secret files are kept outside the store could not be listed (\(why)); "
                                 + "a backup never holds such a file: `mailstore account list` says where each account's secret is read from")
            }
            if !clean {
                Terminal.error("the copy failed verification, so it was not put in place: it is kept in \(r.copyFolder) for inspection "
                               + "(the next backup into \(r.destination) clears it); the store's own log is likely damaged too; run `mailstore verify`")
                throw ExitCode(CLIExit.problemsFound)
            }
        }
    }
}
