extension IMAPCommand {
    /// The bytes of the command with `tag`, as parts to send in order.
    ///
    /// Every part except the last ends with a synchronizing literal announcement `{n}\r\n`:
    /// after sending it the client must wait for the server's `+` continuation before
    /// sending the next part (a tagged NO/BAD instead means the command was refused).
    /// With `literalPlus` (the server announced LITERAL+) literals are sent as `{n+}` and the
    /// result is always a single part.
    package func encode(tag: String, literalPlus: Bool = false) throws(IMAPEncodingError) -> [[UInt8]] {
        try encode(tag: tag, literalMode: literalPlus ? .nonSynchronizing : .synchronizing)
    }

    /// The bytes of the command with `tag`, literals sent as `literalMode` says (see
    /// ``encode(tag:literalPlus:)``).
    package func encode(tag: String, literalMode: LiteralMode) throws(IMAPEncodingError) -> [[UInt8]] {
        var w = CommandWriter(literalMode: literalMode)
        if case .done = self {
            w.raw("DONE")
            return w.finish()
        }
        let tagBytes = Array(tag.utf8)
        guard !tagBytes.isEmpty, tagBytes.allSatisfy({ IMAPByte.isStrictAtomChar($0) || $0 == IMAPByte.closeBracket }),
              !tagBytes.contains(IMAPByte.plus)
        else { throw .invalidTag(tag) }
        w.raw(tagBytes)
        w.space()
        try writeBody(to: &w)
        return w.finish()
    }

    /// The bytes of the command as one buffer, for logs and tests (literals inline).
    package func encodedBytes(tag: String, literalPlus: Bool = false) throws(IMAPEncodingError) -> [UInt8] {
        Array(try encode(tag: tag, literalPlus: literalPlus).joined())
    }

    private func writeBody(to w: inout CommandWriter) throws(IMAPEncodingError) {
        switch self {
        case .capability: w.raw("CAPABILITY")
        case .noop: w.raw("NOOP")
        case .logout: w.raw("LOGOUT")
        case .starttls: w.raw("STARTTLS")
        case .namespace: w.raw("NAMESPACE")
        case .close: w.raw("CLOSE")
        case .unselect: w.raw("UNSELECT")
        case .expunge: w.raw("EXPUNGE")
        case .idle: w.raw("IDLE")
        case .done: w.raw("DONE")
        case .authenticate(let mechanism, let initialResponse):
            w.raw("AUTHENTICATE ")
            w.raw(try IMAPCommand.atom(mechanism))
            if let initialResponse {
                guard initialResponse.utf8.allSatisfy(IMAPCommand.isBase64Byte) else { throw .invalidBase64(initialResponse) }
                w.space()
                w.raw(initialResponse.isEmpty ? "=" : initialResponse)
            }
        case .login(let username, let password):
            w.raw("LOGIN ")
            w.string(username)
            w.space()
            w.string(password)
        case .id(let fields):
            w.raw("ID ")
            guard let fields else {
                w.raw("NIL")
                return
            }
            w.raw("(")
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { w.space() }
                w.string(key)
                w.space()
                if let value = fields[key] ?? nil {
                    w.string(value)
                } else {
                    w.raw("NIL")
                }
            }
            w.raw(")")
        case .enable(let names):
            w.raw("ENABLE")
            for name in names {
                w.space()
                w.raw(try IMAPCommand.atom(name))
            }
        case .list(let reference, let pattern, let options):
            w.raw("LIST ")
            w.string(ModifiedUTF7.encode(reference))
            w.space()
            w.string(ModifiedUTF7.encode(pattern))
            if !options.isEmpty {
                w.raw(" RETURN (")
                for (i, option) in options.enumerated() {
                    if i > 0 { w.space() }
                    switch option {
                    case .specialUse: w.raw("SPECIAL-USE")
                    case .subscribed: w.raw("SUBSCRIBED")
                    case .children: w.raw("CHILDREN")
                    case .status(let items):
                        w.raw("STATUS (" + items.map(\.rawValue).joined(separator: " ") + ")")
                    }
                }
                w.raw(")")
            }
        case .lsub(let reference, let pattern):
            w.raw("LSUB ")
            w.string(ModifiedUTF7.encode(reference))
            w.space()
            w.string(ModifiedUTF7.encode(pattern))
        case .select(let mailbox, let option), .examine(let mailbox, let option):
            if case .select = self {
                w.raw("SELECT ")
            } else {
                w.raw("EXAMINE ")
            }
            w.mailbox(mailbox)
            switch option {
            case nil: break
            case .condstore: w.raw(" (CONDSTORE)")
            case .qresync(let p):
                w.raw(" (QRESYNC (\(p.uidValidity) \(p.modSeq)")
                if let known = p.knownUIDs {
                    w.space()
                    w.raw(try IMAPCommand.set(known))
                }
                w.raw("))")
            }
        case .create(let mailbox):
            w.raw("CREATE ")
            w.mailbox(mailbox)
        case .delete(let mailbox):
            w.raw("DELETE ")
            w.mailbox(mailbox)
        case .rename(let from, let to):
            w.raw("RENAME ")
            w.mailbox(from)
            w.space()
            w.mailbox(to)
        case .subscribe(let mailbox):
            w.raw("SUBSCRIBE ")
            w.mailbox(mailbox)
        case .unsubscribe(let mailbox):
            w.raw("UNSUBSCRIBE ")
            w.mailbox(mailbox)
        case .myRights(let mailbox):
            w.raw("MYRIGHTS ")
            w.mailbox(mailbox)
        case .status(let mailbox, let items):
            w.raw("STATUS ")
            w.mailbox(mailbox)
            w.raw(" (" + items.map(\.rawValue).joined(separator: " ") + ")")
        case .uidFetch(let set, let items, let changedSince, let vanished):
            w.raw("UID FETCH ")
            w.raw(try IMAPCommand.set(set))
            w.raw(" (")
            for (i, item) in items.enumerated() {
                if i > 0 { w.space() }
                item.write(to: &w)
            }
            w.raw(")")
            if let changedSince {
                w.raw(" (CHANGEDSINCE \(changedSince)\(vanished ? " VANISHED" : ""))")
            }
        case .uidSearch(let keys, let returnOptions):
            w.raw("UID SEARCH")
            if let returnOptions {
                w.raw(" RETURN (" + returnOptions.map(\.rawValue).joined(separator: " ") + ")")
            }
            if keys.contains(where: \.hasNonASCIIText) { w.raw(" CHARSET UTF-8") }
            if keys.isEmpty {
                w.raw(" ALL")
            }
            for key in keys {
                w.space()
                try key.write(to: &w)
            }
        case .uidStore(let set, let operation, let flags, let unchangedSince, let silent):
            w.raw("UID STORE ")
            w.raw(try IMAPCommand.set(set))
            if let unchangedSince { w.raw(" (UNCHANGEDSINCE \(unchangedSince))") }
            w.raw(operation == .add ? " +FLAGS" : " -FLAGS")
            if silent { w.raw(".SILENT") }
            w.raw(" ")
            w.raw(try IMAPCommand.flagList(flags))
        case .uidCopy(let set, let mailbox), .uidMove(let set, let mailbox):
            if case .uidCopy = self {
                w.raw("UID COPY ")
            } else {
                w.raw("UID MOVE ")
            }
            w.raw(try IMAPCommand.set(set))
            w.space()
            w.mailbox(mailbox)
        case .uidExpunge(let set):
            w.raw("UID EXPUNGE ")
            w.raw(try IMAPCommand.set(set))
        case .append(let mailbox, let flags, let date, let message, let utf8):
            w.raw("APPEND ")
            w.mailbox(mailbox)
            if !flags.isEmpty {
                w.space()
                w.raw(try IMAPCommand.flagList(flags))
            }
            if let date {
                w.raw(" \"\(date.description)\"")
            }
            w.space()
            if utf8 {
                w.raw("UTF8 (")
                w.literal(message, eightBit: true)
                w.raw(")")
            } else {
                w.literal(message)
            }
        }
    }

    /// `text` as an atom, or throws when it holds a byte atoms may not.
    static func atom(_ text: String) throws(IMAPEncodingError) -> String {
        guard !text.isEmpty, text.utf8.allSatisfy(IMAPByte.isStrictAtomChar) else { throw .invalidAtom(text) }
        return text
    }

    /// `(flag flag ...)`, each flag an atom optionally preceded by one `\`.
    static func flagList(_ flags: [String]) throws(IMAPEncodingError) -> String {
        var out = "("
        for (i, flag) in flags.enumerated() {
            var body = Substring(flag)
            if body.first == "\\" { body = body.dropFirst() }
            guard !body.isEmpty, body.utf8.allSatisfy(IMAPByte.isStrictAtomChar) else { throw .invalidFlag(flag) }
            if i > 0 { out += " " }
            out += flag
        }
        return out + ")"
    }

    /// The set in sequence-set syntax; an empty set cannot be sent.
    static func set(_ set: UIDSet) throws(IMAPEncodingError) -> String {
        guard !set.isEmpty else { throw .emptySet }
        return set.description
    }

    /// Whether `b` may appear in base64 text.
    static func isBase64Byte(_ b: UInt8) -> Bool {
        switch b {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2F, 0x3D: return true
        default: return false
        }
    }
}
