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
    static func select(root: MIMEPart, buf: UnsafeBufferPointer<UInt8>) -> Selection {
        var s = Selection()
        walk(root, isRoot: true, buf: buf, into: &s)
        return s
    }

    private static func walk(_ part: MIMEPart, isRoot: Bool, buf: UnsafeBufferPointer<UInt8>, into s: inout Selection) {
        if part.isMultipart {
            for child in part.children { walk(child, isRoot: false, buf: buf, into: &s) }
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
