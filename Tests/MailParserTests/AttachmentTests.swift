import XCTest
@testable import MailParser

final class AttachmentTests: XCTestCase {
    private let message = """
    From: a@example.com
    Content-Type: multipart/mixed; boundary=mixed

    --mixed
    Content-Type: multipart/related; boundary=rel

    --rel
    Content-Type: text/html; charset=utf-8

    <p>See <img src="cid:logo@x"></p>
    --rel
    Content-Type: image/png
    Content-ID: <logo@x>
    Content-Transfer-Encoding: base64

    iVBORw0KGgoAAAANSUhEUg==
    --rel--
    --mixed
    Content-Type: application/pdf; name="report.pdf"
    Content-Disposition: attachment; filename="=?utf-8?q?R=C3=A9port.pdf?="
    Content-Transfer-Encoding: base64

    JVBERi0xLjQK
    JVBERi0xLjQK
    --mixed
    Content-Type: image/jpeg; name=photo.jpg
    Content-Disposition: inline; filename=photo.jpg

    rawjpegbytes
    --mixed
    Content-Type: text/plain; name=notes.txt
    Content-Disposition: attachment
    Content-Transfer-Encoding: quoted-printable

    a=3Db
    --mixed
    Content-Type: application/pgp-signature

    sig
    --mixed--
    """

    func testAttachmentsAndInlineImages() {
        let m = parse(message)
        XCTAssertEqual(m.attachments.map(\.mimeType), ["image/png", "application/pdf", "image/jpeg", "text/plain"])
        let png = m.attachments[0]
        XCTAssertTrue(png.isInline)
        XCTAssertEqual(png.contentID, "logo@x")
        XCTAssertNil(png.filename)
        XCTAssertEqual(png.size, 16)
        let pdf = m.attachments[1]
        XCTAssertEqual(pdf.filename, "Réport.pdf")
        XCTAssertFalse(pdf.isInline)
        XCTAssertEqual(pdf.size, 18)
        XCTAssertEqual(pdf.transferEncoding, .base64)
        let jpg = m.attachments[2]
        XCTAssertTrue(jpg.isInline)
        XCTAssertEqual(jpg.size, 12)
        let txt = m.attachments[3]
        XCTAssertEqual(txt.filename, "notes.txt")
        XCTAssertFalse(txt.isInline)
        XCTAssertEqual(txt.size, 3)
        XCTAssertTrue(m.hasAttachments)
        XCTAssertEqual(m.htmlBody, "<p>See <img src=\"cid:logo@x\"></p>")
        XCTAssertNil(m.textBody)  // the text/plain part is an attachment
        XCTAssertEqual(m.snippet, "See")
    }

    func testOnlyInlineImagesMeansNoAttachments() {
        let m = parse("""
        Content-Type: multipart/related; boundary=r

        --r
        Content-Type: text/html

        <img src="cid:a">
        --r
        Content-Type: image/gif
        Content-ID: <a>
        Content-Disposition: inline

        GIF89a
        --r--
        """)
        XCTAssertEqual(m.attachments.count, 1)
        XCTAssertTrue(m.attachments[0].isInline)
        XCTAssertFalse(m.hasAttachments)
    }

    func testAttachmentDispositionWinsOverContentID() {
        let m = parse("""
        Content-Type: multipart/mixed; boundary=b

        --b
        Content-Type: image/png; name=a.png
        Content-ID: <a>
        Content-Disposition: attachment

        x
        --b--
        """)
        XCTAssertFalse(m.attachments[0].isInline)
        XCTAssertTrue(m.hasAttachments)
    }

    func testTextPartWithFilenameIsAttachmentButRootTextIsBody() {
        let m = parse("""
        Content-Type: multipart/mixed; boundary=b

        --b
        Content-Type: text/plain

        body
        --b
        Content-Type: text/x-patch; name=fix.patch

        diff
        --b--
        """)
        XCTAssertEqual(m.textBody, "body")
        XCTAssertEqual(m.attachments.map(\.filename), ["fix.patch"])
        let single = parse("Content-Type: text/plain; name=readme.txt\n\nroot text")
        XCTAssertEqual(single.textBody, "root text")
        XCTAssertTrue(single.attachments.isEmpty)
    }
}
