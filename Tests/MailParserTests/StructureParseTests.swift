import Foundation
import XCTest
@testable import MailParser

/// `MailParser.parseStructure` (what the search index walks) builds the root part exactly as the full parse does.
final class StructureParseTests: XCTestCase {
    /// Every field of `a` and `b` and of their parts and embedded messages' parts, with the path where they differ.
    private func assertSame(_ a: MIMEPart, _ b: MIMEPart, _ path: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.contentType, b.contentType, path, file: file, line: line)
        XCTAssertEqual(a.parameters, b.parameters, path, file: file, line: line)
        XCTAssertEqual(a.disposition, b.disposition, path, file: file, line: line)
        XCTAssertEqual(a.dispositionParameters, b.dispositionParameters, path, file: file, line: line)
        XCTAssertEqual(a.filename, b.filename, path, file: file, line: line)
        XCTAssertEqual(a.contentID, b.contentID, path, file: file, line: line)
        XCTAssertEqual(a.transferEncoding, b.transferEncoding, path, file: file, line: line)
        XCTAssertEqual(a.headers, b.headers, path, file: file, line: line)
        XCTAssertEqual(a.headerRange, b.headerRange, path, file: file, line: line)
        XCTAssertEqual(a.bodyRange, b.bodyRange, path, file: file, line: line)
        XCTAssertEqual(a.children.count, b.children.count, path, file: file, line: line)
        for (i, (x, y)) in zip(a.children, b.children).enumerated() { assertSame(x, y, path + "/\(i)", file: file, line: line) }
        XCTAssertEqual(a.embedded == nil, b.embedded == nil, path, file: file, line: line)
        if let x = a.embedded, let y = b.embedded {
            XCTAssertEqual(x.subject, y.subject, path, file: file, line: line)
            assertSame(x.root, y.root, path + "/embedded", file: file, line: line)
        }
    }

    private var messages: [String] {
        [
            "Subject: plain\n\nhello",
            "From someone@example.org Mon Jan  1 00:00:00 2024\nSubject: an mbox From_ line first\n\nbody",
            "no header colon at all\n\nbody",
            """
            Content-Type: multipart/mixed; boundary="m"
            Subject: mixed

            --m
            Content-Type: multipart/alternative; boundary="a"

            --a
            Content-Type: text/plain; charset=iso-8859-1
            Content-Transfer-Encoding: quoted-printable

            caf=E9
            --a
            Content-Type: text/html; charset=utf-8

            <p>café</p>
            --a--
            --m
            Content-Type: application/pdf; name="r.pdf"
            Content-Disposition: attachment; filename="r.pdf"
            Content-Transfer-Encoding: base64
            Content-ID: <pdf@x>

            JVBERi0xLjQK
            --m
            Content-Type: message/rfc822

            Subject: inner
            Content-Type: multipart/alternative; boundary="i"

            --i
            Content-Type: text/plain

            inner text
            --i--
            --m--
            """,
            // A boundary never closed, a part with no headers, and nesting past the depth limit.
            "Content-Type: multipart/mixed; boundary=b\n\n--b\n\nno headers\n--b\nContent-Type: text/plain\n\nunclosed",
            (0..<80).map { "Content-Type: multipart/mixed; boundary=\"d\($0)\"\n\n--d\($0)\n" }.joined() + "\nleaf",
            (0..<30).map { _ in "Content-Type: message/rfc822\n\n" }.joined() + "Subject: deepest\n\ntext",
        ]
    }

    func testTheStructureIsTheFullParsesRoot() {
        for (i, m) in messages.enumerated() {
            for crlf in [true, false] {
                let raw = bytes(m, crlf: crlf)
                assertSame(MailParser.parseStructure(raw), MailParser.parse(raw).root, "message \(i) crlf \(crlf)")
            }
        }
    }

    func testTheStructureOfTheSharedCorporaIsTheFullParsesRoot() throws {
        let root = "/work/shared/corpora"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: root), "no shared corpora")
        var n = 0
        for sub in ["notmuch-default", "notmuch-threading"] {
            guard let e = FileManager.default.enumerator(atPath: root + "/" + sub) else { continue }
            while let rel = e.nextObject() as? String {
                let path = root + "/" + sub + "/" + rel
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else { continue }
                let raw = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                assertSame(MailParser.parseStructure(raw), MailParser.parse(raw).root, path)
                n += 1
            }
        }
        XCTAssertGreaterThan(n, 0)
    }
}
