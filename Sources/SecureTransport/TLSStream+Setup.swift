import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TLSStream {
    /// A client context: TLS 1.2 at least, peer verification against the system trust store (`SystemTrust`: its
    /// hashed directory, read lazily, where there is one) plus `caFile` when given.
    static func makeContext(caFile: String?, systemTrust: SystemTrust = .current) throws(TransportError) -> OpaquePointer {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .tlsFailed(reason: "cannot create a TLS context: \(openSSLErrors())")
        }
        do throws(TransportError) {
            guard mailstore_ssl_ctx_set_min_proto_version(context, TLS1_2_VERSION) == 1 else {
                throw .tlsFailed(reason: "cannot require TLS 1.2: \(openSSLErrors())")
            }
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            switch systemTrust {
            case .directory(let dir):
                guard SSL_CTX_load_verify_dir(context, dir) == 1 else {
                    throw .tlsFailed(reason: "cannot use the system trust store \(dir): \(openSSLErrors())")
                }
            case .defaultPaths:
                guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                    throw .tlsFailed(reason: "cannot load the system trust store: \(openSSLErrors())")
                }
            }
            if let caFile { try trust(caFile: caFile, in: context) }
            return context
        } catch {
            SSL_CTX_free(context)
            throw error
        }
    }

    /// Adds the certificates of the PEM file `caFile` to the context's trust.
    private static func trust(caFile: String, in context: OpaquePointer) throws(TransportError) {
        guard access(caFile, R_OK) == 0 else {
            throw .tlsFailed(reason: "cannot read the CA file \(caFile): \(TCPSocket.errorText(errno))")
        }
        guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
            throw .tlsFailed(reason: "the CA file \(caFile) holds no usable PEM certificate: \(openSSLErrors())")
        }
    }

    /// Makes the handshake check that the certificate names `host` (a DNS name, or an IP
    /// address for an IP literal) and sends `host` as SNI when it is a name.
    static func expectServer(named host: String, on ssl: OpaquePointer) throws(TransportError) {
        if isIPAddress(host) {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else {
                throw .tlsFailed(reason: "cannot set the expected IP address \(host): \(openSSLErrors())")
            }
            return
        }
        SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
        guard SSL_set1_host(ssl, host) == 1 else {
            throw .tlsFailed(reason: "cannot set the expected host name \(host): \(openSSLErrors())")
        }
        guard mailstore_ssl_set_tlsext_host_name(ssl, host) == 1 else {
            throw .tlsFailed(reason: "cannot send the host name \(host) (SNI): \(openSSLErrors())")
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address literal.
    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// OpenSSL's queued errors as one line (and the queue emptied).
    static func openSSLErrors() -> String {
        var lines: [String] = []
        var text = [CChar](repeating: 0, count: 256)
        while case let code = ERR_get_error(), code != 0 {
            text.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
            lines.append(text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        return lines.isEmpty ? "no details from OpenSSL" : lines.joined(separator: "; ")
    }
}
