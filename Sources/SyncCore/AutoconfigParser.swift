import CLibXML2

/// Reads a Thunderbird autoconfig (ISPDB) `clientConfig` document: the first IMAP incoming server and the
/// first SMTP outgoing server with TLS or STARTTLS (plaintext servers are ignored, and said to have been seen), each
/// with its `<username>` (placeholders unexpanded) and `<authentication>` values. Pure: no I/O.
///
/// The document comes from a server, so it is hostile. libxml2 reads it into a tree (`xmlReadMemory`) with no network
/// access, no external entity or DTD loaded and no entity substituted; only the text nodes directly inside an element
/// or an attribute are read (an entity reference is skipped, so no entity is expanded however it nests), at most
/// `maxFieldBytes` of each. Bounds: the document at most `maxDocumentBytes`; libxml2's own limits on depth (256) and
/// text node size hold (`XML_PARSE_HUGE` is not set).
///
/// It used Foundation's `XMLParser` until fuzz-discovery found it trapping and crashing on documents a server could
/// send (2026-12-02): an element name that is not UTF-8 (it force-unwraps the name's decoding) and a processing
/// instruction with no data (`<?x?>`, valid XML: it calls `strlen` on a null pointer).
package enum AutoconfigParser {
    /// The largest document read (the ISPDB's are a few KiB).
    package static let maxDocumentBytes = 1 << 20
    /// The most bytes of one field (a host name, a port, a socket type, the server's type) kept.
    package static let maxFieldBytes = 1_024

    /// The most `<authentication>` values kept of one server (the ISPDB's name one to three).
    package static let maxAuthenticationValues = 8

    /// One server of a document and how to log in to it.
    package struct Entry: Sendable, Equatable {
        package var server: Provider.Server
        /// The `<username>` as written, Thunderbird's placeholders (%EMAILADDRESS%, %EMAILLOCALPART%, %EMAILDOMAIN%)
        /// unexpanded; nil when there is none or it is empty.
        package var username: String?
        /// The `<authentication>` values in document order (`password-cleartext`, `OAuth2`, ...), at most
        /// `maxAuthenticationValues`.
        package var authentication: [String]

        package init(server: Provider.Server, username: String? = nil, authentication: [String] = []) {
            self.server = server
            self.username = username
            self.authentication = authentication
        }
    }

    /// What a well-formed `clientConfig` document offers.
    package struct Document: Sendable, Equatable {
        /// The first IMAP server with TLS or STARTTLS.
        package var imap: Entry?
        /// The first SMTP server with TLS or STARTTLS.
        package var smtp: Entry?
        /// Whether an IMAP or SMTP server was named with a plaintext socket type (`plain`) only: none was taken.
        package var plaintextSeen: Bool
    }

    /// The servers found; nil when the document is not well-formed XML, is not a `clientConfig`, or names no usable
    /// server.
    package static func parse(_ data: [UInt8]) -> (imap: Provider.Server?, smtp: Provider.Server?)? {
        guard let document = read(data), document.imap != nil || document.smtp != nil else { return nil }
        return (document.imap?.server, document.smtp?.server)
    }

    /// The document's servers with their login details; nil when it is not well-formed XML or not a `clientConfig`.
    package static func read(_ data: [UInt8]) -> Document? {
        guard !data.isEmpty, data.count <= maxDocumentBytes else { return nil }
        _ = initialized
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue
        let parsed = data.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                xmlReadMemory($0, Int32(buf.count), nil, nil, Int32(bitPattern: options))
            }
        }
        guard let doc = parsed else { return nil }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc), name(root) == "clientConfig" else { return nil }
        var imap: Entry?
        var smtp: Entry?
        var plaintextSeen = false
        // Every element under the root in document order, without recursion (depth is libxml2's to bound).
        var next: xmlNodePtr? = root.pointee.children
        while let node = next {
            if node.pointee.type == XML_ELEMENT_NODE {
                let element = name(node)
                if element == "incomingServer" || element == "outgoingServer",
                   let kind = attribute(node, "type")?.lowercased(), kind == "imap" || kind == "smtp" {
                    switch entry(node) {
                    case .usable(let found):
                        if kind == "imap", imap == nil { imap = found }
                        if kind == "smtp", smtp == nil { smtp = found }
                    case .plaintext: plaintextSeen = true
                    case .unusable: break
                    }
                }
                if let child = node.pointee.children {
                    next = child
                    continue
                }
            }
            next = following(node, under: root)
        }
        return Document(imap: imap, smtp: smtp, plaintextSeen: plaintextSeen)
    }

    /// libxml2 set up once per process, before any parse (its documentation asks so of threaded programs).
    private static let initialized: Void = xmlInitParser()

    /// The node after `node`'s subtree in document order, within `root`'s; nil at its end.
    private static func following(_ node: xmlNodePtr, under root: xmlNodePtr) -> xmlNodePtr? {
        var at = node
        while at != root {
            if let sibling = at.pointee.next { return sibling }
            guard let parent = at.pointee.parent else { return nil }
            at = parent
        }
        return nil
    }

    /// What one `incomingServer` or `outgoingServer` element offers.
    private enum Offer {
        case usable(Entry)
        /// A server with every field usable but a plaintext socket type.
        case plaintext
        case unusable
    }

    /// The server a `incomingServer` or `outgoingServer` element describes by its `hostname`, `port` and `socketType`
    /// children (the first of each), with its first `username` and its `authentication` values; usable when all
    /// three are and the socket type is TLS or STARTTLS.
    private static func entry(_ element: xmlNodePtr) -> Offer {
        var fields: [String: String] = [:]
        var authentication: [String] = []
        var child = element.pointee.children
        while let node = child {
            if node.pointee.type == XML_ELEMENT_NODE {
                let field = name(node)
                if ["hostname", "port", "socketType", "username"].contains(field), fields[field] == nil {
                    fields[field] = text(node.pointee.children)
                } else if field == "authentication", authentication.count < maxAuthenticationValues {
                    let value = text(node.pointee.children)
                    if !value.isEmpty { authentication.append(value) }
                }
            }
            child = node.pointee.next
        }
        guard let host = fields["hostname"], !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }),
              let port = fields["port"].flatMap(UInt16.init), port > 0 else { return .unusable }
        let security: Provider.Security
        switch fields["socketType"]?.uppercased() {
        case "SSL", "TLS": security = .tls
        case "STARTTLS": security = .starttls
        case "PLAIN": return .plaintext
        default: return .unusable
        }
        let username = fields["username"].flatMap { $0.isEmpty ? nil : $0 }
        return .usable(Entry(server: Provider.Server(host: host, port: port, security: security), username: username,
                             authentication: authentication))
    }

    /// An element's name (bytes that are not UTF-8 repaired, never trapped on).
    private static func name(_ node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    /// The text of the attribute `name` of `node`, or nil when it has none.
    private static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        guard let attr = xmlHasProp(node, name) else { return nil }
        return text(attr.pointee.children)
    }

    /// The text nodes among `first` and its siblings, concatenated (at most `maxFieldBytes`), with the white space at
    /// either end trimmed. Entity references and elements among them are skipped.
    private static func text(_ first: xmlNodePtr?) -> String {
        var bytes: [UInt8] = []
        var at = first
        while let node = at, bytes.count < maxFieldBytes {
            if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE, let content = node.pointee.content {
                var p = content
                while p.pointee != 0, bytes.count < maxFieldBytes {
                    bytes.append(p.pointee)
                    p += 1
                }
            }
            at = node.pointee.next
        }
        let space: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let start = bytes.firstIndex(where: { !space($0) }), let end = bytes.lastIndex(where: { !space($0) }) else { return "" }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }
}
