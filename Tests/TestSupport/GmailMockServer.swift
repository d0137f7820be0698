import Foundation

/// A Gmail-like IMAP server over implicit TLS on loopback (Tools/test-server/gmail-mock.py): NOT Gmail, a small model
/// of its documented label semantics (folders are labels, All Mail holds every message not in Spam or Trash, each
/// folder gives a message its own UID, X-GM-MSGID and X-GM-THRID). With a test IMAP server's certificate (names
/// localhost and 127.0.0.1, signed by its CA); an account reaches it as `127.0.0.1` with `--provider gmail`. Stopped
/// when the value is deinitialised.
package final class GmailMockServer {
    /// A message of the mailbox the server starts with.
    package struct Message {
        /// Its X-GM-MSGID (also its X-GM-THRID unless `thread` is given).
        package var gmailID: Int
        /// Its Message-ID, without angle brackets.
        package var messageID: String
        package var subject: String
        /// Gmail labels: `\Inbox`, `\Sent`, `\Draft`, `\Trash`, `\Spam`, `\Important` or a user label (`Work`, `Projects`,
        /// `Travel`); none: archived (in All Mail only).
        package var labels: [String]
        package var flags: [String]
        /// Its X-GM-THRID when it is not `gmailID`.
        package var thread: Int?

        package init(gmailID: Int, messageID: String, subject: String, labels: [String], flags: [String] = [], thread: Int? = nil) {
            self.gmailID = gmailID
            self.messageID = messageID
            self.subject = subject
            self.labels = labels
            self.flags = flags
            self.thread = thread
        }
    }

    /// The port it listens on (127.0.0.1).
    package let port: UInt16
    /// Holds its state file (`state.json`) and its command log (`state.json.log`).
    package let folder = TemporaryDirectory("gmail-mock")
    private let process: Process

    /// Starts the server holding `messages`, with the certificate and key of `tlsDirectory` (`server.pem`, `server.key`).
    package init(tlsDirectory: String, messages: [Message]) throws {
        var msgs: [String: Any] = [:]
        for m in messages {
            let raw = "From: Alice <alice@example.org>\r\nTo: user@gmail.com\r\nSubject: \(m.subject)\r\n"
                + "Message-ID: <\(m.messageID)>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n"
                + "Content-Type: text/plain\r\n\r\nBody of \(m.subject)\r\n"
            msgs["\(m.gmailID)"] = ["raw": raw, "thrid": m.thread ?? m.gmailID, "labels": m.labels, "flags": m.flags]
        }
        let state = folder.file("state.json")
        try JSONSerialization.data(withJSONObject: ["msgs": msgs]).write(to: URL(fileURLWithPath: state))
        let started = try LoopbackScript.start(["Tools/test-server/gmail-mock.py", tlsDirectory + "/server.pem",
                                                 tlsDirectory + "/server.key", state])
        process = started.process
        port = started.port
    }

    deinit { stop() }

    /// Ends the server (a test holding it past its end, as XCTest keeps test cases, would otherwise keep it running).
    package func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The messages on the server now (those deleted for good gone), by X-GM-MSGID: their labels and flags.
    package func messages() throws -> [Int: (messageID: String?, labels: [String], flags: [String])] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("state.json")))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        var out: [Int: (messageID: String?, labels: [String], flags: [String])] = [:]
        for (key, value) in json?["msgs"] as? [String: [String: Any]] ?? [:] {
            guard let id = Int(key) else { continue }
            let raw = value["raw"] as? String ?? ""
            let messageID = raw.range(of: #"(?im)^Message-ID: <([^>]*)>"#, options: .regularExpression).map { r in
                String(raw[r].drop { $0 != "<" }.dropFirst().prefix { $0 != ">" })
            }
            out[id] = (messageID, value["labels"] as? [String] ?? [], value["flags"] as? [String] ?? [])
        }
        return out
    }

    /// How many times the server sent the whole body of each message (`BODY[]`, `BODY.PEEK[]` or `RFC822`), by
    /// X-GM-MSGID; a message never sent whole is absent.
    package func bodyFetches() throws -> [Int: Int] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("state.json")))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        var out: [Int: Int] = [:]
        for (key, value) in json?["body_fetches"] as? [String: Int] ?? [:] {
            if let id = Int(key) { out[id] = value }
        }
        return out
    }

    /// The raw bytes of the message with Gmail id `gmailID` as the server sends them, nil when it is gone for good.
    package func raw(of gmailID: Int) throws -> [UInt8]? {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.file("state.json")))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let raw = (json?["msgs"] as? [String: [String: Any]])?["\(gmailID)"]?["raw"] as? String else { return nil }
        return Array(raw.data(using: .isoLatin1) ?? Data())
    }

    /// The labels of the message with Gmail id `gmailID`, nil when it is gone for good.
    package func labels(of gmailID: Int) throws -> [String]? { try messages()[gmailID]?.labels }

    /// The command lines clients sent so far (`[session] C: TAG COMMAND ...`).
    package func commands() -> [String] {
        let text = (try? String(contentsOfFile: folder.file("state.json.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}
