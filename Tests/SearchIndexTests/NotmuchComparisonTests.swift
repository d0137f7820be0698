import Foundation
import MailStore
@testable import SearchIndex
import SearchQuery
import XCTest

/// Results equal notmuch's on the shared real-mail corpora for queries that mean the same in both languages.
/// Skipped (with a message) when `../shared/corpora` or notmuch is absent; with CI=true a missing notmuch
/// fails instead, so the comparison cannot silently stop running where the corpora are.
final class NotmuchComparisonTests: SearchIndexTestCase {
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora").path

    /// Queries written the same way in both languages, over the notmuch test corpus and the list mbox.
    static let queries = [
        "notmuch", "thread", "patch", "Worth", "tags", "from:cworth", "from:carl", "from:keithp", "from:\"Carl Worth\"",
        "to:notmuch", "to:notmuchmail.org", "subject:notmuch", "subject:patch", "subject:\"add a\"", "\"notmuch new\"",
        "\"a patch\"", "from:cworth subject:notmuch", "notmuch AND emacs", "notmuch OR mutt", "emacs -from:cworth",
        "NOT notmuch", "(emacs OR vim) patch", "date:2009-11-17..2009-11-18", "date:2009-11-18 notmuch",
        "date:..2009-11-17", "id:87fx8cqf8v.fsf@yoom.home.cworth.org", "folder:bar", "folder:foo/baz",
        "mimetype:text/html", "mimetype:application/pgp-signature", "MIMO", "OTA", "from:ericsson", "subject:RAN4",
        "\"test cases\"", "measurement uncertainty", "xyzzy", "*",
    ]

    func notmuch(_ args: [String], config: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/notmuch")
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["NOTMUCH_CONFIG"] = config
        env["TZ"] = "UTC"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "notmuch \(args.joined(separator: " "))")
        return String(decoding: data, as: UTF8.self)
    }

    func testResultsEqualNotmuchs() throws {
        guard FileManager.default.fileExists(atPath: Self.corpora) else {
            throw XCTSkip("\(Self.corpora) is absent: the notmuch comparison needs the shared corpora")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/notmuch") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("notmuch is not installed (Tools/setup installs it)") }
            throw XCTSkip("notmuch is not installed (Tools/setup installs it)")
        }
        // One maildir for both: the notmuch corpus, plus the list mbox as maildir files in folder "list".
        let mail = dir.file("mail")
        try FileManager.default.copyItem(atPath: Self.corpora + "/notmuch-default", toPath: mail)
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: mail)
        try makeWritable(mail)
        let list = mail + "/list/cur"
        try FileManager.default.createDirectory(atPath: list, withIntermediateDirectories: true)
        let mbox = try FileManager.default.contentsOfDirectory(atPath: Self.corpora + "/list-mbox").filter { $0.hasSuffix(".mbox") }
        for m in mbox { try splitMbox(Self.corpora + "/list-mbox/" + m, into: list) }
        let config = dir.file("notmuch-config")
        try "[database]\npath=\(mail)\n[new]\ntags=\n[search]\nexclude_tags=\n[maildir]\nsynchronize_flags=false\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        _ = try notmuch(["new", "--quiet"], config: config)
        var o = Importer.Options()
        o.account = "local"
        _ = try Importer(store: store, options: o).importMaildir(mail)
        let idx = try index()

        func theirs(_ q: String) throws -> Set<String> {
            Set(try notmuch(["search", "--output=messages", q], config: config).split(separator: "\n").map { String($0.dropFirst(3)) })
        }
        func ours(_ q: String) throws -> Set<String> {
            var out = Set<String>()
            try idx.search(try SearchQuery.parse(q)) { h in
                if let m = h.messageID { out.insert(m) }
                return true
            }
            return out
        }
        // Messages notmuch names by a synthesized id (no Message-ID header) are left out of the comparison.
        let universe = try theirs("*").intersection(try ours("*"))
        XCTAssertGreaterThan(universe.count, 100, "both indexed the corpora")
        var compared = 0
        for q in Self.queries {
            let a = try theirs(q).intersection(universe), b = try ours(q).intersection(universe)
            XCTAssertEqual(b, a, "'\(q)': only mailstore \(b.subtracting(a).sorted().prefix(5)), only notmuch \(a.subtracting(b).sorted().prefix(5))")
            if !a.isEmpty { compared += 1 }
        }
        XCTAssertGreaterThan(compared, Self.queries.count * 2 / 3, "most queries match something")
    }

    func makeWritable(_ root: String) throws {
        let e = FileManager.default.enumerator(atPath: root)
        while let f = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + f, isDirectory: &isDir)
            try FileManager.default.setAttributes([.posixPermissions: isDir.boolValue ? 0o700 : 0o600], ofItemAtPath: root + "/" + f)
        }
    }

    /// Splits an mbox at its `From ` lines into one file per message (the separator line dropped, `>From ` unquoted).
    func splitMbox(_ path: String, into folder: String) throws {
        let text = try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        var current: [Substring] = []
        var n = 0
        func flush() throws {
            guard !current.isEmpty else { return }
            n += 1
            try (current.joined(separator: "\n") + "\n").write(toFile: folder + "/list-\(n):2,", atomically: false, encoding: .utf8)
            current = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("From ") {
                try flush()
                continue
            }
            current.append(line.hasPrefix(">From ") ? line.dropFirst() : line)
        }
        try flush()
    }
}
