import COpenSSL

/// Responses for SASL mechanisms, base64-encoded for IMAP `AUTHENTICATE` (RFC 4959 SASL-IR) and
/// SMTP `AUTH` (RFC 4954).
package enum SASL {
    /// PLAIN (RFC 4616): base64 of `authzid NUL user NUL password`; the authorization
    /// identity is normally empty.
    package static func plain(user: String, password: String, authorizationIdentity: String = "") -> String {
        var message: [UInt8] = Array(authorizationIdentity.utf8)
        message.append(0)
        message.append(contentsOf: user.utf8)
        message.append(0)
        message.append(contentsOf: password.utf8)
        return base64(message)
    }

    /// XOAUTH2 (Google, Microsoft): base64 of `user=USER ^A auth=Bearer TOKEN ^A ^A`.
    package static func xoauth2(user: String, token: String) -> String {
        let message = "user=" + user + "\u{01}auth=Bearer " + token + "\u{01}\u{01}"
        return base64(Array(message.utf8))
    }

    /// OAUTHBEARER (RFC 7628): base64 of the GS2 header `n,a=USER,` then `^A host=HOST ^A port=PORT
    /// ^A auth=Bearer TOKEN ^A ^A` (`,` and `=` in the user escaped as `=2C` and `=3D`).
    package static func oauthBearer(user: String, token: String, host: String, port: UInt16) -> String {
        let escaped = user.map { $0 == "=" ? "=3D" : $0 == "," ? "=2C" : String($0) }.joined()
        let message = "n,a=" + escaped + ",\u{01}host=" + host + "\u{01}port=" + String(port)
            + "\u{01}auth=Bearer " + token + "\u{01}\u{01}"
        return base64(Array(message.utf8))
    }

    /// The failure a server sends as an OAuth challenge (RFC 7628 3.2.2; Gmail's XOAUTH2 does the same):
    /// base64 of JSON such as `{"status":"invalid_token","scope":"..."}`, returned decoded (control
    /// characters dropped, at most 512 characters) for an error message; nil when `challenge` is not
    /// base64 of a JSON object. At most 4 KiB of challenge is read.
    package static func oauthFailure(_ challenge: String) -> String? {
        let text = String(challenge.unicodeScalars.filter { $0 != " " && $0 != "\t" })
        guard !text.isEmpty, text.utf8.count <= 4096, let bytes = decodeBase64(text),
              bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        let json = String(decoding: bytes, as: UTF8.self).unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        return String(String.UnicodeScalarView(json.prefix(512)))
    }

    /// Decodes standard padded base64; nil when it is not.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var out = [UInt8](repeating: 0, count: input.count / 4 * 3 + 1)
        let written = out.withUnsafeMutableBufferPointer { o in
            input.withUnsafeBufferPointer { EVP_DecodeBlock(o.baseAddress, $0.baseAddress, Int32($0.count)) }
        }
        guard written >= 0 else { return nil }
        let padding = input.suffix(2).filter { $0 == UInt8(ascii: "=") }.count
        return Array(out[0..<max(0, Int(written) - padding)])
    }

    /// LOGIN (draft-murchison-sasl-login): the answer to one challenge, the user name to the
    /// first and the password to the second, each base64 on its own.
    package static func login(_ answer: String) -> String {
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
