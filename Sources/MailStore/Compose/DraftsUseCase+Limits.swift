import EventLog
import Foundation

/// The bounds of a draft. A draft version is one `DraftSaved` event: its text lives in the log and in the drafts
/// view, and every version is kept, so what one save may hold is bounded (a 200 MB `--body-file` had become a
/// 163 MiB event and a 2.7 GB process). Attachments are blobs, bounded as a message is.
extension DraftsUseCase {
    /// The most bytes (UTF-8) of a draft's text body: a longer text goes as an attachment.
    public static let maxBodyBytes = 1 << 20
    /// The most bytes of a subject.
    public static let maxSubjectBytes = 4_096
    /// The most recipients of a draft, To, Cc and Bcc together (providers cap a message at 100-500).
    public static let maxRecipients = 1_000
    /// The most bytes of the text of one address field as given (`--to`, `--cc`, `--bcc`).
    public static let maxAddressFieldBytes = 256 << 10
    /// The most attachments of a draft.
    public static let maxAttachments = 100
    /// The most bytes of a draft's attachments together (what a message may hold: `import --max-message-bytes`'s
    /// default, above every provider's limit).
    public static let maxAttachmentBytes = 64 << 20

    /// Refuses `input`'s texts past their bounds, before anything is read or parsed.
    func checkInput(_ input: DraftInput) throws {
        for (field, text) in [("To", input.to), ("Cc", input.cc), ("Bcc", input.bcc)] {
            if let text, text.utf8.count > Self.maxAddressFieldBytes {
                throw DraftError.tooLarge("the \(field) field is \(text.utf8.count) bytes, over \(Self.maxAddressFieldBytes)")
            }
        }
        if let s = input.subject, s.utf8.count > Self.maxSubjectBytes {
            throw DraftError.tooLarge("the subject is \(s.utf8.count) bytes, over \(Self.maxSubjectBytes)")
        }
        if let b = input.body, b.utf8.count > Self.maxBodyBytes {
            throw DraftError.tooLarge("the body is \(b.utf8.count) bytes, over \(Self.maxBodyBytes) (1 MiB): attach a long text as a file")
        }
        if input.attach.count > Self.maxAttachments {
            throw DraftError.tooLarge("\(input.attach.count) attachments, over \(Self.maxAttachments)")
        }
    }

    /// Refuses a draft whose recipients or attachments together pass their bounds.
    static func checkDraft(recipients: Int, attachments: Int, attachmentBytes: UInt64) throws {
        if recipients > maxRecipients { throw DraftError.tooLarge("\(recipients) recipients, over \(maxRecipients)") }
        if attachments > maxAttachments { throw DraftError.tooLarge("\(attachments) attachments, over \(maxAttachments)") }
        if attachmentBytes > UInt64(maxAttachmentBytes) {
            throw DraftError.tooLarge("the attachments are \(attachmentBytes) bytes together, over \(maxAttachmentBytes) (64 MiB)")
        }
    }

    /// The bytes of the file at `path` to attach, when it is a regular file of at most `room` bytes (read with that
    /// bound, `BoundedFile`: a device or a file growing meanwhile is not read past it).
    static func attachmentBytes(_ path: String, room: Int) throws -> [UInt8] {
        do throws(BoundedFile.Failure) { return try BoundedFile.read(path, maxBytes: room) } catch {
            switch error {
            case .tooLarge(let size):
                throw DraftError.tooLarge("attaching \(path)\(size.map { " (\($0) bytes)" } ?? "") takes the attachments over \(maxAttachmentBytes) bytes (64 MiB)")
            case .notAFile: throw DraftError.unreadableAttachment(path, "not a regular file")
            case .unreadable(let why): throw DraftError.unreadableAttachment(path, why)
            }
        }
    }

    /// `body` cut at a line's end so that it holds at most `maxBodyBytes`, with a note where it was cut: a reply
    /// or a forward quotes its original, which may be longer than a draft holds.
    package static func fitted(_ body: String) -> String {
        guard body.utf8.count > maxBodyBytes else { return body }
        let note = "\n[the rest of the quoted message is left out: a draft's text holds at most 1 MiB]\n"
        let room = maxBodyBytes - note.utf8.count
        let head = Array(body.utf8.prefix(room + 1))
        var end = room
        if let newline = head[..<room].lastIndex(of: UInt8(ascii: "\n")) {
            end = newline + 1
        } else {
            while end > 0, head[end] & 0xC0 == 0x80 { end -= 1 }
        }
        return String(decoding: head[..<end], as: UTF8.self) + note
    }
}

