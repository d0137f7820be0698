import Categorizer
import EventModel
import MailParser
import XCTest

/// Each rule on the smallest message that shows it, the rules' order, and the explanation's safety.
final class CategorizerRuleTests: XCTestCase {
    let c = Categorizer()

    func category(_ raw: String, _ categorizer: Categorizer? = nil) -> Categorization {
        (categorizer ?? c).categorize(MessageSignals(MailParser.parse(Array(raw.replacingOccurrences(of: "\n", with: "\r\n").utf8))))
    }

    func testListPostIsForums() {
        let r = category("From: a@example.org\nTo: dev@lists.example.org\nSubject: hi\nList-Post: <mailto:dev@lists.example.org>\n\nx")
        XCTAssertEqual(r.category, .forums)
        XCTAssertEqual(r.explanation, "forums.list-post: <mailto:dev@lists.example.org>")
    }

    func testListPostNOIsNotADiscussionList() {
        let r = category("From: news@shop.example\nSubject: hi\nList-Post: NO\nList-Unsubscribe: <mailto:u@shop.example>\n\nx")
        XCTAssertEqual(r.category, .promotions)
    }

    func testUnsubscribeWithBulkSignalsIsPromotions() {
        let r = category("From: Shop <news@shop.example>\nSubject: Spring collection\nList-Unsubscribe: <mailto:u@shop.example>\nPrecedence: bulk\n\nx")
        XCTAssertEqual(r.category, .promotions)
        XCTAssertEqual(r.rule, "promotions.marketing-sender")
    }

    func testCampaignHeaderIsPromotions() {
        XCTAssertEqual(category("From: team@roaster.example\nSubject: our new blend\nX-MC-User: 8a7f\n\nx").rule, "promotions.campaign-headers")
    }

    func testReceiptFromAutomatedSenderIsUpdates() {
        let r = category("From: PayPal <service@paypal.example>\nSubject: Receipt for your payment\nFeedback-ID: 1:receipt\n\nx")
        XCTAssertEqual(r.category, .updates)
        XCTAssertEqual(r.rule, "updates.transactional")
        XCTAssertEqual(category("From: alerts@bank.example\nSubject: Security alert: new sign-in\n\nx").category, .updates)
    }

    func testAutoSubmittedAndNoReplyAreUpdates() {
        XCTAssertEqual(category("From: root@host.example\nSubject: Cron job\nAuto-Submitted: auto-generated\n\nx").rule, "updates.auto-submitted")
        XCTAssertEqual(category("From: ann@example.org\nSubject: away\nAuto-Submitted: no\n\nx").category, .primary)
        XCTAssertEqual(category("From: no-reply@service.example\nSubject: hello\n\nx").rule, "updates.automated-sender")
        XCTAssertEqual(category("From: notifications@service.example\nSubject: hello\n\nx").category, .updates)
    }

    func testServiceHeadersWinOverListHeaders() {
        let r = category("From: notifications@github.com\nSubject: Re: [a/b] PR\nX-GitHub-Reason: mention\nList-ID: a/b <b.a.github.com>\nList-Post: <mailto:x@reply.github.com>\n\nx")
        XCTAssertEqual(r.category, .updates)
        XCTAssertEqual(category("From: jira@corp.example\nSubject: [JIRA] x\nX-JIRA-FingerPrint: 1\n\nx").category, .updates)
    }

    func testSocialNetworksBySenderDomain() {
        let r = category("From: LinkedIn <invitations@linkedin.com>\nSubject: add me\n\nx")
        XCTAssertEqual(r.category, .social)
        XCTAssertEqual(r.explanation, "social.network: linkedin.com")
        XCTAssertEqual(category("From: notification@facebookmail.com\nSubject: x\n\nx").category, .social)
        XCTAssertEqual(category("From: a@notlinkedin.com\nSubject: x\n\nx").category, .primary, "a domain matches itself and its subdomains only")
    }

    func testPeopleArePrimary() {
        XCTAssertEqual(category("From: Ann <ann@example.org>\nSubject: lunch?\n\nx").rule, "primary.person")
        XCTAssertEqual(category("From: Ann <ann@example.org>\nSubject: Re: lunch?\nIn-Reply-To: <a@b>\n\nx").rule, "primary.reply")
        let mine = Categorizer(ownAddresses: ["Me@Example.net"], correspondents: ["bob@example.org"])
        XCTAssertEqual(category("From: me@example.net\nSubject: note\nPrecedence: bulk\n\nx", mine).rule, "primary.own")
        XCTAssertEqual(category("From: bob@example.org\nSubject: hi\n\nx", mine).rule, "primary.correspondent")
    }

    func testLearnedSenderRulesComeFirst() {
        var rules = SenderRules()
        rules.learn("news@shop.example", .primary)
        rules.learn("@github.com", .forums)
        let learned = Categorizer(senderRules: rules)
        let r = category("From: news@shop.example\nSubject: 30% off\nList-Unsubscribe: <mailto:u@shop.example>\n\nx", learned)
        XCTAssertEqual(r.explanation, "sender.learned: news@shop.example")
        XCTAssertEqual(r.category, .primary)
        XCTAssertEqual(category("From: notifications@github.com\nSubject: x\nX-GitHub-Reason: mention\n\nx", learned).category, .forums)
        rules.learn("news@shop.example", .promotions)
        XCTAssertEqual(Categorizer(senderRules: rules).categorize(MessageSignals(from: "news@shop.example")).category, .promotions,
                       "the newest correction for a sender wins")
    }

    /// Outlook's unquoted comma in the sender's name (`Smith, John <john@example.com>`): the rule learned for the
    /// address applies, and the signals' sender is the address with the whole name (not a mailbox `Smith`).
    func testAnUnquotedCommaInTheSendersNameKeepsTheAddress() {
        var rules = SenderRules()
        rules.learn("john@example.com", .promotions)
        let raw = "From: Smith, John <John@Example.com>\nSubject: hi\n\nx"
        XCTAssertEqual(category(raw, Categorizer(senderRules: rules)).explanation, "sender.learned: john@example.com")
        let m = MessageSignals(MailParser.parse(Array(raw.replacingOccurrences(of: "\n", with: "\r\n").utf8)))
        XCTAssertEqual(m.from, "john@example.com")
        XCTAssertEqual(m.fromName, "Smith, John")
    }

    func testMailmanSubjectTagToTheListIsForums() {
        let r = category("From: Carl <carl@example.org>\nTo: notmuch@notmuchmail.org\nSubject: Re: [notmuch] archive\n\nx")
        XCTAssertEqual(r.explanation, "forums.subject-tag: [notmuch] to notmuch@notmuchmail.org")
        XCTAssertEqual(category("From: Carl <carl@example.org>\nTo: me@example.org\nSubject: [PATCH] fix\n\nx").category, .primary)
    }

    func testTicketTrackerIsUpdates() {
        XCTAssertEqual(category("From: \" via RT\" <rt@x.example>\nSubject: [support.x.example #33575] AutoReply: FYI\n\nx").rule, "updates.ticket")
        XCTAssertEqual(category("From: a@x.example\nSubject: [#1] hi\n\nx").category, .primary)
    }

    func testTrackingHeavyHTMLIsPromotions() {
        let s = MessageSignals(from: "team@brand.example", subject: "Spring", fields: [.listUnsubscribe: "<mailto:u@brand.example>"],
                               htmlImages: 12, htmlLinks: 40)
        XCTAssertEqual(c.categorize(s).rule, "promotions.tracking-html")
        let html = "<html>" + String(repeating: "<IMG src=x><a href=y>z</a>", count: 3) + "</html>"
        let m = MailParser.parse(Array("From: a@b.example\r\nContent-Type: text/html\r\n\r\n\(html)".utf8))
        XCTAssertEqual(MessageSignals(m).htmlImages, 3)
        XCTAssertEqual(MessageSignals(m).htmlLinks, 3)
    }

    func testEvidenceIsSanitisedAndBounded() {
        let r = category("From: a@example.org\nSubject: x\nList-Post: <mailto:\u{1B}[31mred\u{7}" + String(repeating: "y", count: 300) + ">\n\nx")
        XCTAssertFalse(r.evidence.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        XCTAssertLessThanOrEqual(r.evidence.count, 81)
    }

    func testDeterministicAndVersioned() {
        XCTAssertEqual(Categorizer.name, "rules")
        XCTAssertEqual(Categorizer.version, 1)
        let s = MessageSignals(from: "x@example.org", subject: "Re: hi", isReply: true)
        XCTAssertEqual(c.categorize(s), c.categorize(s))
    }

    /// The Return-Path's address is found inside its angle brackets, spaces and tabs (trimmed byte by byte), and its
    /// domain, or a parent of it, is an email service provider's.
    func testReturnPathAtAnEmailServiceProviderIsBulk() {
        for value in ["<bounces+12345-abcd=example.org@em123.sendgrid.net>", " \t<<Bounce@Mail.SendGrid.net>> ", "bounce@sendgrid.net"] {
            let r = category("From: Ann <ann@shop.example>\nSubject: hello\nReturn-Path: \(value)\n\nx")
            XCTAssertEqual(r.category, .promotions, value)
            XCTAssertEqual(r.rule, "promotions.bulk", value)
            XCTAssertEqual(r.explanation, "promotions.bulk: Return-Path at sendgrid.net", value)
        }
        // Nothing left once trimmed, or a domain no provider's: no bulk signal.
        XCTAssertEqual(category("From: Ann <ann@shop.example>\nSubject: hello\nReturn-Path: <>\n\nx").rule, "primary.person")
        XCTAssertEqual(category("From: Ann <ann@shop.example>\nSubject: hello\nReturn-Path: <ann@notsendgrid.net>\n\nx").rule, "primary.person")
    }

    /// A list server's Sender (`-bounces`, `-request@`), with or without a List-Id, makes a discussion list; the
    /// same words elsewhere in the address do not.
    func testAListServersSenderIsForums() {
        let withID = category("From: ann@example.org\nSender: dev-bounces+ann=example.org@example.org\nSubject: hi\nList-Id: <dev.example.org>\n\nx")
        XCTAssertEqual(withID.rule, "forums.list-server")
        XCTAssertEqual(withID.explanation, "forums.list-server: <dev.example.org>")
        let request = category("From: ann@example.org\nSender: dev-request@example.org\nSubject: hi\n\nx")
        XCTAssertEqual(request.explanation, "forums.list-server: Sender: dev-request@example.org")
        let bounces = category("From: ann@example.org\nSender: DEV-Bounces@example.org\nSubject: hi\n\nx")
        XCTAssertEqual(bounces.explanation, "forums.list-server: Sender: dev-bounces@example.org")
        // `-bounces` without its `@` makes a list only beside a List-Id; `request` without the dash, never.
        XCTAssertEqual(category("From: ann@example.org\nSender: dev-bounces.x@example.org\nSubject: hi\n\nx").rule, "primary.person")
        XCTAssertEqual(category("From: ann@example.org\nSender: devrequest@example.org\nSubject: hi\n\nx").rule, "primary.person")
    }

    /// Addresses are lowercased as `lowercased()` does, capitals and other scripts included; one already lowercase is
    /// kept as it is.
    func testSignalAddressesAreLowercased() {
        let s = MessageSignals(from: "Ann.Lee@Example.ORG", sender: "ÉLODIE@EXÄMPLE.DE",
                               recipients: ["dev@example.org", "Δ@Ω.GR", "MiXeD+Tag@Example.Org"])
        XCTAssertEqual(s.from, "ann.lee@example.org")
        XCTAssertEqual(s.sender, "élodie@exämple.de")
        XCTAssertEqual(s.recipients, ["dev@example.org", "δ@ω.gr", "mixed+tag@example.org"])
        let parsed = MessageSignals(MailParser.parse(Array("From: Ann <ANN@Example.org>\r\nTo: A@B.c, d@e.f\r\nCc: G@H.i\r\n\r\nx".utf8)))
        XCTAssertEqual(parsed.from, "ann@example.org")
        XCTAssertEqual(parsed.recipients, ["a@b.c", "d@e.f", "g@h.i"], "To then Cc, in order")
    }

    /// A subject tag with a space in it is not a list's name.
    func testASubjectTagWithASpaceIsNotAListTag() {
        XCTAssertEqual(category("From: ann@example.org\nTo: dev@example.org\nSubject: [dev] hi\n\nx").rule, "forums.subject-tag")
        XCTAssertEqual(category("From: ann@example.org\nTo: dev@example.org\nSubject: [dev team] hi\n\nx").rule, "primary.person")
    }
}
