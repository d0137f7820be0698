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
        return String(decoding: Base64.encode(message), as: UTF8.self)
    }

    /// XOAUTH2 (Google, Microsoft): base64 of `user=USER ^A auth=Bearer TOKEN ^A ^A`.
    public static func xoauth2(user: String, token: String) -> String {
        let message = "user=" + user + "\u{01}auth=Bearer " + token + "\u{01}\u{01}"
        return String(decoding: Base64.encode(Array(message.utf8)), as: UTF8.self)
    }

    /// LOGIN (draft-murchison-sasl-login): the answer to one challenge, the user name to the
    /// first and the password to the second, each base64 on its own.
    public static func login(_ answer: String) -> String {
        String(decoding: Base64.encode(Array(answer.utf8)), as: UTF8.self)
    }
}
