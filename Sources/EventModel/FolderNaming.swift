/// Folder roles from names (the third tier of folder mapping, after SPECIAL-USE and provider maps),
/// and display names. Pure.
///
/// No name gives the `\Flagged` role (Starred): a folder the user named `Flagged` or `Starred` is an ordinary folder,
/// and took the place of the virtual Starred view (every thread with a flagged copy), whose starred threads then
/// vanished from it. Only a server's own flagged folder has that role: by SPECIAL-USE `\Flagged` or the provider's map
/// (Gmail's `[Gmail]/Starred`).
package enum FolderNaming {
    /// Lowercased names (and common translations) for each role.
    static let names: [(FolderRole, [String])] = [
        (.inbox, ["inbox"]),
        (.sent, ["sent", "sent items", "sent mail", "sent messages", "gesendet", "gesendete objekte", "envoyés",
                 "éléments envoyés", "enviados", "elementos enviados", "inviata", "posta inviata", "verzonden",
                 "verzonden items", "gesendete elemente", "elementi inviati", "itens enviados", "sent-mail", "skickat", "отправленные", "送信済み", "已发送"]),
        (.drafts, ["drafts", "draft", "entwürfe", "brouillons", "borradores", "bozze", "concepten", "utkast", "rascunhos",
                   "черновики", "下書き", "草稿"]),
        (.trash, ["trash", "deleted items", "deleted messages", "deleted", "bin", "papierkorb", "gelöschte objekte",
                  "gelöschte elemente", "verwijderde items", "itens excluídos", "itens eliminados", "lixeira", "corbeille",
                  "éléments supprimés", "elementos eliminados", "posta eliminata", "elementi eliminati",
                  "papelera", "cestino", "prullenbak", "papperskorgen", "корзина", "удаленные", "ゴミ箱", "已删除"]),
        (.junk, ["junk", "spam", "junk e-mail", "junk email", "junk-e-mail", "bulk mail", "spamverdacht", "courrier indésirable",
                 "correo no deseado", "posta indesiderata", "lixo eletrônico", "lixo eletrónico", "ongewenste e-mail", "skräppost", "спам", "迷惑メール", "垃圾邮件"]),
        (.archive, ["archive", "archives", "archiv", "archivo", "archivio", "archief", "arkiv", "архив", "アーカイブ", "归档"]),
        (.all, ["all mail", "[gmail]/all mail"]),
    ]

    /// The role a folder's name suggests: its last path component, case-insensitively (`Sent`,
    /// `INBOX.Sent Items`, `Gesendet` -> sent). Custom when nothing matches.
    package static func role(forPath path: String, delimiter: Character? = nil) -> FolderRole {
        let full = path.lowercased()
        if full == "inbox" { return .inbox }
        let leaf: String
        if let d = delimiter, let last = full.split(separator: d).last { leaf = String(last) }
        else { leaf = full.split(whereSeparator: { $0 == "/" || $0 == "." }).last.map(String.init) ?? full }
        for (role, list) in names where role != .inbox && (list.contains(leaf) || list.contains(full)) { return role }
        return .custom
    }

    /// The name shown for a folder path: its last component.
    package static func displayName(forPath path: String, delimiter: Character = "/") -> String {
        if path.uppercased() == "INBOX" { return "Inbox" }
        return path.split(separator: delimiter).last.map(String.init) ?? path
    }
}
