import COpenSSL

extension TLSStream {
    /// The most names of a certificate a rejection lists.
    static let maxNamesShown = 8

    /// Why the certificate was rejected, and what to do, for OpenSSL's verification result `code`: a certificate
    /// for other names says which names it has; one no trusted CA signed says whether `caFile` was given; one out of
    /// its dates says to check the clock.
    static func rejection(_ code: Int, of ssl: OpaquePointer, host: String, caFile: String?) -> String {
        let openSSL = String(cString: X509_verify_cert_error_string(code))
        switch Int32(code) {
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            let names = certificateNames(ssl)
            return "\(openSSL): it does not name \(host)"
                + (names.isEmpty ? "" : " but \(names)")
                + "; connect with a name it holds, or have the server's certificate name \(host) (no CA file changes that)"
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE,
             X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
            guard let caFile else { return "\(openSSL); if the server uses a private CA, pass --ca-file with its certificate" }
            return "\(openSSL): no CA of the system trust store nor of the CA file \(caFile) signed it; "
                + "put the CA that signed the server's certificate in that file"
        case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
            return "\(openSSL); the server's certificate must be renewed, unless this machine's clock is wrong"
        default:
            return openSSL
        }
    }

    /// The names the peer's certificate is for ("a, b"), at most `maxNamesShown`; empty when it has none.
    static func certificateNames(_ ssl: OpaquePointer) -> String {
        var text = [CChar](repeating: 0, count: 1_024)
        let count = text.withUnsafeMutableBufferPointer {
            mailstore_peer_certificate_names(ssl, $0.baseAddress, $0.count, Int32(maxNamesShown))
        }
        let names = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard !names.isEmpty else { return "" }
        return "only " + names + (count < 0 ? ", ..." : "")
    }
}
