import Foundation
import MailStore

/// The JSON form of a notification decision (`notifications --json`, `notifications follow --json`, and
/// the notify command's stdin): the spec's content, with the outcome and why.
struct NotificationJSON: Encodable {
    struct UserInfo: Encodable { var emailId: String; var threadId: String; var accountId: String; var fromAddress: String }
    struct Content: Encodable {
        var title: String; var subtitle: String; var body: String; var group: String; var identifier: String
        var categoryIdentifier = "EMAIL_NOTIFICATION"
        var actions = ["mark-read", "archive", "delete", "reply"]
        var userInfo: UserInfo
    }
    var event: String?
    var emailId: String
    var threadId: String
    var accountId: String
    var outcome: String
    var reason: String
    var state: String
    var syncTime: String
    var content: Content

    init(_ r: NotificationRecord, event: String? = nil) {
        let d = r.decision
        self.event = event
        emailId = d.emailID
        threadId = d.threadID
        accountId = r.account
        outcome = d.outcome.description
        reason = d.reason
        state = r.state.description
        syncTime = d.syncTime.iso8601
        content = Content(title: d.readableTitle, subtitle: d.subtitle, body: d.body, group: d.threadID, identifier: r.identifier,
                          userInfo: UserInfo(emailId: d.emailID, threadId: d.threadID, accountId: r.account, fromAddress: d.fromAddress))
    }

    /// One line of JSON.
    var line: String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? JSONText.string(e.encode(self))) ?? "{}"
    }
}
