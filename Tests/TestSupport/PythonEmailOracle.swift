import Foundation
import XCTest

/// What Python's `email` package (policy.default) reads from a message: the oracle the composer's
/// output (and a copy filed on a server, read back) is checked against, besides mailstore's own parser.
package struct PythonEmailOracle: Decodable {
    /// One attachment as Python decodes it.
    package struct File: Decodable {
        /// `get_filename()`.
        package var filename: String?
        /// `get_content_type()`.
        package var type: String
        /// The decoded bytes, base64 (empty for an attached message: see `innerSubject`).
        package var data: String
        /// `get_content_charset()`.
        package var charset: String?
        /// The subject of an attached message (`message/rfc822`), as Python reads it.
        package var innerSubject: String?
    }

    /// The decoded subject.
    package var subject: String
    /// `From` as (display name, address) pairs.
    package var from: [[String]]
    /// `To` pairs.
    package var to: [[String]]
    /// `Cc` pairs.
    package var cc: [[String]]
    /// The display names of the groups in From, To, Cc and Bcc (`name:;`), by the field's name in lower case: where a
    /// downgraded address beyond ASCII is (RFC 6857).
    package var groups: [String: [String]]
    /// Whether a Bcc header is present.
    package var hasBcc: Bool
    /// `In-Reply-To`, as written.
    package var inReplyTo: String?
    /// `References`, as written (unfolded).
    package var references: String?
    /// The text/plain body, decoded.
    package var text: String
    /// The attachments.
    package var attachments: [File]
    /// Every defect Python noticed, in headers and parts.
    package var defects: [String]

    private static let script = """
    import base64, email, email.policy, json, sys
    m = email.message_from_bytes(open(sys.argv[1], 'rb').read(), policy=email.policy.default)
    def pairs(name):
        h = m[name]
        return [[a.display_name, a.addr_spec] for a in h.addresses] if h is not None else []
    defects = []
    for part in m.walk():
        defects += [repr(d) for d in part.defects]
        for name, value in part.items():
            defects += [name + ': ' + repr(d) for d in getattr(value, 'defects', [])]
    body = m.get_body(preferencelist=('plain',))
    def file(p):
        inner = p.get_payload(0) if p.is_multipart() else None
        return {'filename': p.get_filename(), 'type': p.get_content_type(), 'charset': p.get_content_charset(),
                'data': base64.b64encode(p.get_payload(decode=True) or b'').decode(),
                'innerSubject': str(inner['subject']) if inner is not None and inner['subject'] is not None else None}
    print(json.dumps({
        'subject': str(m['subject']), 'from': pairs('from'), 'to': pairs('to'), 'cc': pairs('cc'),
        'groups': {n: [g.display_name for g in m[n].groups if g.display_name is not None]
                   for n in ('from', 'to', 'cc', 'bcc') if m[n] is not None},
        'hasBcc': m['bcc'] is not None,
        'inReplyTo': str(m['in-reply-to']) if m['in-reply-to'] else None,
        'references': ' '.join(str(m['references']).split()) if m['references'] else None,
        'text': body.get_content() if body is not None else '',
        'attachments': [file(p) for p in m.iter_attachments()],
        'defects': defects,
    }))
    """

    /// Python's reading of `message`.
    package static func read(_ message: [UInt8]) throws -> PythonEmailOracle {
        let folder = TemporaryDirectory("composer-oracle")
        let path = folder.file("message.eml")
        guard FileManager.default.createFile(atPath: path, contents: Data(message)) else {
            throw ScriptError("cannot write \(path)")
        }
        let result = try ChildProcess.run("/usr/bin/python3", ["-c", script, path])
        guard result.status == 0 else { throw ScriptError("python3 failed (\(result.status)): \(result.stderr)") }
        return try JSONDecoder().decode(PythonEmailOracle.self, from: Data(result.stdout.utf8))
    }

    /// The decoded bytes of attachment `index`.
    package func bytes(ofAttachment index: Int) -> [UInt8] {
        [UInt8](Data(base64Encoded: attachments[index].data) ?? Data())
    }
}
