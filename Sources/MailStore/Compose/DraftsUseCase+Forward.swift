import EventLog
import EventModel
import Foundation
import MailParser
import MessageComposer

extension DraftsUseCase {
    /// The original's attachments a forward carries: the draft's entries, their blobs (prepared, stored with the
    /// draft's first version) and what was left out.
    struct CarriedAttachments {
        var attachments: [EventModel.DraftAttachment] = []
        var blobs: [PendingBlob] = []
        var problems: [String] = []
    }

    /// The attachments of `parsed` (the original of a forward; inline resources of its HTML are not attachments) as a
    /// draft's, their bytes decoded from `bytes`, each stored as a blob. Bounded as a draft is: at most
    /// `maxAttachments` of them and `maxAttachmentBytes` together, each one over what is left named in the problems
    /// and left out (one at a time is decoded, so memory holds at most one decoded attachment and the compressed rest);
    /// those past the original's attachment list (`ParsedMessage.unlistedAttachments`) are counted in the problems.
    func forwardedAttachments(of parsed: ParsedMessage, in bytes: [UInt8]) throws -> CarriedAttachments {
        var carried = CarriedAttachments()
        var total = 0
        let parts = Self.partHeaders(parsed.root)
        for (index, a) in parsed.attachments.enumerated() where !a.isInline {
            let part = parts[a.bodyRange.lowerBound]
            var name = Self.forwardedName(part?.name ?? a.filename, index: index + 1)
            guard carried.attachments.count < Self.maxAttachments else {
                carried.problems.append("the original's attachment \(name) was left out: a draft has at most \(Self.maxAttachments)")
                continue
            }
            let data = a.decodedBody(in: bytes)
            // An attached message without a name of its own is named from its subject, as mail clients save one.
            if a.filename == nil && a.mimeType.hasPrefix("message/") { name = Self.messageFileName(data, index: index + 1) }
            guard data.count <= Self.maxAttachmentBytes - total else {
                carried.problems.append("the original's attachment \(name) (\(data.count) bytes) was left out: "
                                        + "the attachments would be over \(Self.maxAttachmentBytes) bytes (64 MiB) together")
                continue
            }
            total += data.count
            let blob = try store.log.prepareBlob(data)
            carried.blobs.append(blob)
            let type = Self.forwardedType(a.mimeType)
            carried.attachments.append(EventModel.DraftAttachment(filename: name, mimeType: type, size: UInt64(data.count), blob: blob.hash,
                                                                  charset: Self.forwardedCharset(part?.charset, type: type)))
        }
        if parsed.unlistedAttachments > 0 {
            // Past the list's bounds (`ParsedMessage.maxListedAttachments`, `maxAttachmentListBytes`): not named in
            // the message's event, nor here, but never dropped without a word.
            let n = parsed.unlistedAttachments
            carried.problems.append("\(n) more of the original's attachments \(n == 1 ? "was" : "were") left out: a message's attachment "
                                    + "list holds at most \(ParsedMessage.maxListedAttachments) entries and "
                                    + "\(ParsedMessage.maxAttachmentListBytes / 1_024) KiB of names and types")
        }
        return carried
    }

    /// The most UTF-8 bytes of a forwarded attachment's name (a file name's common limit).
    static let maxForwardedNameBytes = 255

    /// A forwarded attachment's name as a draft keeps it: the last part of a path (a sender's `../x` or `C:\x` is
    /// no path here), without control characters, at most `maxForwardedNameBytes` (`cutName`: its extension kept);
    /// `attachment-N` when nothing is left.
    static func forwardedName(_ name: String?, index: Int) -> String {
        let last = (name ?? "").split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let visible = String(String.UnicodeScalarView(last.unicodeScalars.filter { !($0.value < 0x20 || (0x7F..<0xA0).contains($0.value)) }))
        let clean = cutName(visible.trimmingCharacters(in: .whitespaces))
        return clean.isEmpty || clean == "." || clean == ".." ? "attachment-\(index)" : clean
    }

    /// The longest extension (from a name's last `.`) that `cutName` keeps: past it the dot is no extension's.
    static let maxExtensionBytes = 16

    /// `name` whole when it has at most `maxForwardedNameBytes`, else its extension (at most `maxExtensionBytes`) after
    /// the longest beginning of whole characters that fits before it (`Attachment.cut`): cut from its end, a name lost
    /// what tells a reader how to open the file (`xxx…x` for `xxx…x.pdf`), and a cut by scalars could split an emoji.
    static func cutName(_ name: String) -> String {
        guard name.utf8.count > maxForwardedNameBytes else { return name }
        if let dot = name.lastIndex(of: "."), dot > name.startIndex, name[dot...].utf8.count <= maxExtensionBytes {
            let stem = Attachment.cut(String(name[..<dot]), maxBytes: maxForwardedNameBytes - name[dot...].utf8.count)
            if !stem.isEmpty { return stem + name[dot...] }
        }
        return Attachment.cut(name, maxBytes: maxForwardedNameBytes)
    }

    /// The file names (whole) and `charset`s of `root`'s parts, by where their bodies begin: the attachment list's
    /// names are cut to 255 bytes from their end (`Attachment.maxFilenameBytes`), their extensions with them, and it
    /// has no charsets.
    static func partHeaders(_ root: MIMEPart) -> [Int: (name: String?, charset: String?)] {
        var headers: [Int: (name: String?, charset: String?)] = [:]
        var pending = [root]
        while let part = pending.popLast() {
            if part.filename != nil || part.charset != nil { headers[part.bodyRange.lowerBound] = (part.filename, part.charset) }
            pending += part.children
        }
        return headers
    }

    /// A forwarded attachment's `charset`: its part's, lowercased, when the attachment is `text/*` and it is an RFC 2045
    /// token of at most `MIMEParameter.maxCharsetBytes` (it comes from a sender and goes into the header sent), else
    /// nil (sent without one, as before schema 2 of `DraftSaved`).
    static func forwardedCharset(_ charset: String?, type: String) -> String? {
        type.lowercased().hasPrefix("text/") ? MIMEParameter.validCharset(charset) : nil
    }

    /// The name of an attached message (`message/rfc822`) that has none: its subject (a `/` or `\` in it as `-`: it is
    /// no path) with `.eml`, `attachment-N.eml` without one. Only its first 256 KiB are read: its header is there.
    static func messageFileName(_ message: [UInt8], index: Int) -> String {
        let subject = (MailParser.parse(Array(message.prefix(256 << 10))).subject ?? "").map { $0 == "/" || $0 == "\\" ? "-" : $0 }
        let name = forwardedName(String(subject) + ".eml", index: index)
        return name == ".eml" ? "attachment-\(index).eml" : name
    }

    /// A forwarded attachment's MIME type: the original's when it is a plain `type/subtype`, else
    /// `application/octet-stream` (the type is written into the message sent).
    static func forwardedType(_ type: String) -> String {
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        let token = { (s: Substring) in MIMEParameter.isToken(s, maxBytes: 127) }
        return parts.count == 2 && token(parts[0]) && token(parts[1]) ? type : "application/octet-stream"
    }
}
