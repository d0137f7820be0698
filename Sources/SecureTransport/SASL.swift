import COpenSSL

/// Responses for SASL mechanisms, base64-encoded for IMAP `AUTHENTICATE` (RFC 4959 SASL-IR) and
/// SMTP `AUTH` (RFC 4954).
public enum SASL {
    /// PLAIN (RFC 4616): base64 of `authzid NUL user NUL password`; the authorization
    /// identity is normally empty.
    public static func plain(user: String, password: String, authorizationIdentity: String = "") -> String {
        var message: [UInt8] = Array(authorizationIdentity.utf8)
        message.append(0)
        message.append(contentsOf: user.utf8)
        message.append(0)
        message.append(contentsOf: password.utf8)
        return base64(message)
    }

    /// XOAUTH2 (Google, Microsoft): base64 of `user=USER ^A auth=Bearer TOKEN ^A ^A`.
    public static func xoauth2(user: String, token: String) -> String {
        let message = "user=" + user + "\u{01}auth=Bearer " + token + "\u{01}\u{01}"
        return base64(Array(message.utf8))
    }

    /// LOGIN (draft-murchison-sasl-login): the answer to one challenge, the user name to the
    /// first and the password to the second, each base64 on its own.
    public static func login(_ answer: String) -> String {
        base64(Array(answer.utf8))
    }

    /// `bytes` in standard, padded base64 (RFC 4648), through OpenSSL.
    static func base64(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "" }
        var out = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4 + 1)
        let written = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { EVP_EncodeBlock(o.baseAddress, $0.baseAddress, Int32($0.count)) }
        }
        return String(decoding: out[0..<Int(max(0, written))], as: UTF8.self)
    }
}
