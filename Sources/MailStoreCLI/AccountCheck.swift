import MailStore

/// The check every read command makes of an `--account` it is given: a mistyped name is "no account" (exit 4), as
/// a mistyped folder, email or draft is, not an empty view or list.
enum AccountCheck {
    /// Throws "no account" unless `name` has mail in the store (the folders view) or is configured (the accounts view).
    /// The name is quoted sanitised and cut to 200 characters.
    static func require(_ name: String, in store: MailStore) throws {
        // Its folders are looked up by the name's key (`accountNames` gives a long name back cut and hashed, as keys hold it).
        if try !store.folders(account: name).isEmpty || store.account(named: name) != nil { return }
        throw CLIError.notFound("no account named \"\(TerminalSanitiser.line(String(name.prefix(200))))\": none is configured by that name "
                                + "(`mailstore account list`) and no mail is filed under it (`mailstore project --view folders --unified`)")
    }
}
