import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a Thunderbird autoconfig (ISPDB) `clientConfig` document: the first IMAP incoming server and the
/// first SMTP outgoing server with TLS or STARTTLS (plaintext servers are ignored). Pure: no I/O.
package enum AutoconfigParser {
    /// The servers found; nil when the document is not valid XML or names no usable server.
    package static func parse(_ data: [UInt8]) -> (imap: Provider.Server?, smtp: Provider.Server?)? {
        guard data.count <= 1 << 20 else { return nil }
        let delegate = Collector()
        let parser = XMLParser(data: Data(data))
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        guard parser.parse(), delegate.sawClientConfig else { return nil }
        let imap = delegate.servers.first { $0.kind == "imap" }?.server
        let smtp = delegate.servers.first { $0.kind == "smtp" }?.server
        return imap == nil && smtp == nil ? nil : (imap, smtp)
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var servers: [(kind: String, server: Provider.Server)] = []
        var sawClientConfig = false
        private var kind: String?
        private var fields: [String: String] = [:]
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "clientConfig" { sawClientConfig = true }
            if name == "incomingServer" || name == "outgoingServer" {
                kind = attributes["type"]?.lowercased()
                fields = [:]
            }
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if text.count < 1024 { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if kind != nil, ["hostname", "port", "socketType"].contains(name) {
                fields[name] = text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if name == "incomingServer" || name == "outgoingServer", let k = kind {
                kind = nil
                let security: Provider.Security? = switch fields["socketType"]?.uppercased() {
                case "SSL", "TLS": .tls
                case "STARTTLS": .starttls
                default: nil
                }
                guard let host = fields["hostname"], !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }),
                      let port = fields["port"].flatMap(UInt16.init), port > 0, let security else { return }
                servers.append((k, Provider.Server(host: host, port: port, security: security)))
            }
        }
    }
}
