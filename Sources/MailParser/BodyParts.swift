/// Chooses the message's own text and HTML parts and lists attachments.
enum BodyParts {
    /// What the walk found.
    struct Selection {
        var text: MIMEPart?
        var html: MIMEPart?
        var attachments: [Attachment] = []
    }

    /// Walks the tree in order. Embedded messages are not entered: their
    /// text is not the message's own text.
    /// `listing`: whether attachments are listed (their decoded sizes counted), or only the text and HTML parts
    /// chosen.
    static func select(root: MIMEPart, buf: UnsafeBufferPointer<UInt8>, listing: Bool = true) -> Selection {
        var s = Selection()
        walk(root, isRoot: true, buf: buf, listing: listing, into: &s)
        return s
    }

    /// The charset the message's body declares: that of its text and HTML parts (``select(root:buf:listing:)``)
    /// when both declare one and it is the same, or of the one of them that declares one; nil when none does or
    /// they differ.
    static func declaredCharset(root: MIMEPart, buf: UnsafeBufferPointer<UInt8>) -> String? {
        let s = select(root: root, buf: buf, listing: false)
        let declared = [s.text, s.html].compactMap { $0?.charset }
        guard let first = declared.first,
              declared.allSatisfy({ Charsets.normalizedName($0) == Charsets.normalizedName(first) }) else { return nil }
        return first
    }

    private static func walk(_ part: MIMEPart, isRoot: Bool, buf: UnsafeBufferPointer<UInt8>, listing: Bool,
                             into s: inout Selection) {
        if part.isMultipart {
            for child in part.children { walk(child, isRoot: false, buf: buf, listing: listing, into: &s) }
            return
        }
        let isText = part.contentType.hasPrefix("text/")
        let isBodyType = part.contentType == "text/plain" || part.contentType == "text/html"
        let isAttachment: Bool
        if part.disposition == .attachment {
            isAttachment = true
        } else if isText {
            // Text with a file name is an attachment unless marked inline
            // (or the only body of the message); other text types are
            // attachments only with a file name.
            isAttachment = part.filename != nil && part.disposition != .inline && !isRoot
        } else if part.contentType.hasPrefix("message/") {
            isAttachment = part.filename != nil
        } else {
            isAttachment = part.filename != nil || isInlineResource(part)
        }
        if isAttachment {
            guard listing else { return }
            let inline = part.disposition != .attachment && isInlineResource(part)
            s.attachments.append(Attachment(filename: part.filename, mimeType: part.contentType,
                                            size: part.decodedSize(buf), isInline: inline,
                                            contentID: part.contentID, bodyRange: part.clampedRange(buf.count),
                                            transferEncoding: part.transferEncoding))
            return
        }
        if isBodyType {
            if part.contentType == "text/plain" {
                if s.text == nil { s.text = part }
            } else if s.html == nil {
                s.html = part
            }
        }
    }

    /// Inline images, and parts with a Content-ID marked inline.
    private static func isInlineResource(_ part: MIMEPart) -> Bool {
        if part.disposition == .attachment { return false }
        if part.contentType.hasPrefix("image/") && (part.disposition == .inline || part.contentID != nil) { return true }
        return part.contentID != nil && part.disposition == .inline
    }
}
