// The cast of a corpus: about 2,000 people with names from several scripts,
// addresses, time zones, mail clients and signatures.

/// Mail client profiles: decide header style, MIME boundaries, body shapes
/// and transfer encodings.
enum MailClient: Int, CaseIterable, Sendable {
    case thunderbird, appleMail, outlook, gmail, mutt, roundcube

    static let weights = [22, 18, 18, 25, 8, 9]

    var agentHeader: [UInt8]? {
        switch self {
        case .thunderbird: return Array("User-Agent: Mozilla Thunderbird".utf8)
        case .appleMail: return Array("X-Mailer: Apple Mail (2.3774.300.61.1.2)".utf8)
        case .outlook: return Array("X-Mailer: Microsoft Outlook 16.0".utf8)
        case .gmail: return nil
        case .mutt: return Array("User-Agent: Mutt/2.2.12 (2023-09-09)".utf8)
        case .roundcube: return Array("User-Agent: Roundcube Webmail/1.6.5".utf8)
        }
    }
}

struct Person: Sendable {
    var culture: Culture
    var language: Language       // language this person sometimes writes in
    var displayUTF8: [UInt8]
    var asciiName: [UInt8]
    var firstUTF8: [UInt8]
    var firstASCII: [UInt8]
    var address: [UInt8]
    var domainIndex: Int
    var mailbox: [UInt8]         // ready for From/To/Cc: `=?UTF-8?B?...?= <a@b>`
    var mailboxIsEncoded: Bool
    var zoneMinutes: Int
    var zoneComment: [UInt8]
    var observesDST: Bool
    var dateStyle: DateStyle
    var client: MailClient
    var signatureTail: [UInt8]   // LF + role/org line + LF + phone (ASCII)
    var hasSignature: Bool
    /// Display name and first name converted to each body charset
    /// (index: Charset.rawValue; nil when not representable).
    var nameByCharset: [[UInt8]?]
    var firstByCharset: [[UInt8]?]

    /// Name in `charset`, falling back to the romanized form.
    @inline(__always)
    func name(in charset: Charset) -> [UInt8] {
        nameByCharset[charset.rawValue] ?? asciiName
    }

    @inline(__always)
    func first(in charset: Charset) -> [UInt8] {
        firstByCharset[charset.rawValue] ?? firstASCII
    }
}

struct Directory: Sendable {
    var people: [Person]
    var domains: [[UInt8]]

    static let nameLists = NameLists()

    /// Builds `count` people; person 0 is the mailbox owner ("me").
    init(seed: UInt64, count: Int, account: Int) {
        var rng = Xoshiro256(seed: mix64(seed, 0x7E0_91E, UInt64(account)))
        var domainList: [[UInt8]] = []
        var domainIndex: [[UInt8]: Int] = [:]
        func internDomain(_ d: [UInt8]) -> Int {
            if let i = domainIndex[d] { return i }
            domainList.append(d)
            domainIndex[d] = domainList.count - 1
            return domainList.count - 1
        }
        var usedAddresses = Set<[UInt8]>()
        var result: [Person] = []
        result.reserveCapacity(count)
        let cultureWeights = [50, 22, 10, 7, 5, 3, 3]
        for index in 0 ..< count {
            let culture: Culture = index == 0 ? .english : Culture(rawValue: rng.weighted(cultureWeights))!
            let firsts = Directory.nameLists.first[culture]!
            let lasts = Directory.nameLists.last[culture]!
            let first = rng.pick(firsts)
            let last = rng.pick(lasts)
            var lastDisplay = last.display
            var lastASCII = last.ascii
            if culture == .cyrillic && first.female {
                lastDisplay += "а"
                lastASCII += "a"
            }
            let display: String
            switch culture {
            case .chinese, .korean: display = lastDisplay + first.display
            case .japanese: display = rng.chance(500) ? lastDisplay + " " + first.display : lastDisplay + first.display
            default: display = first.display + " " + lastDisplay
            }
            let firstAsciiCap = capitalized(first.ascii)
            let lastAsciiCap = capitalized(lastASCII)
            let asciiName: String
            switch culture {
            case .chinese, .korean, .japanese: asciiName = lastAsciiCap + " " + firstAsciiCap
            default: asciiName = firstAsciiCap + " " + lastAsciiCap
            }

            // Address.
            let domains = domainsByCulture[culture]!
            let domainString = index == 0 ? "example.com" : rng.pick(domains)
            let dIndex = internDomain(Array(domainString.utf8))
            let f = sanitizeLocal(first.ascii)
            let l = sanitizeLocal(lastASCII)
            var local: String
            switch rng.below(7) {
            case 0, 1, 2: local = f + "." + l
            case 3: local = String(f.prefix(1)) + l
            case 4: local = f + "_" + l
            case 5: local = f + l
            default: local = f + String(l.prefix(1)) + String(rng.range(1, 99))
            }
            var address = Array((local + "@" + domainString).utf8)
            var suffix = 2
            while usedAddresses.contains(address) {
                address = Array((local + String(suffix) + "@" + domainString).utf8)
                suffix += 1
            }
            usedAddresses.insert(address)

            // Display form in headers.
            let displayBytes = Array(display.utf8)
            var mailbox: [UInt8] = []
            var encoded = false
            if isASCII(displayBytes) {
                switch rng.below(100) {
                case 0 ..< 68:
                    mailbox.put(displayBytes)
                    mailbox.put(" <"); mailbox.put(address); mailbox.put(">")
                case 68 ..< 78:
                    mailbox.put("\"")
                    mailbox.put(Array((lastAsciiCap + ", " + firstAsciiCap).utf8))
                    mailbox.put("\" <"); mailbox.put(address); mailbox.put(">")
                case 78 ..< 86:
                    mailbox.put(address)
                case 86 ..< 95:
                    mailbox.put("\""); mailbox.put(displayBytes); mailbox.put("\" <")
                    mailbox.put(address); mailbox.put(">")
                default:
                    mailbox.put(address); mailbox.put(" ("); mailbox.put(displayBytes); mailbox.put(")")
                }
            } else {
                encoded = true
                if rng.chance(15) {
                    // Raw UTF-8 in the header (RFC 6532 style / sloppy clients).
                    mailbox.put("\""); mailbox.put(displayBytes); mailbox.put("\" <")
                    encoded = false
                } else {
                    appendEncodedName(display, culture: culture, rng: &rng, into: &mailbox)
                    mailbox.put(" <")
                }
                mailbox.put(address); mailbox.put(">")
            }

            let zones = zonesByCulture[culture]!
            let zone = rng.pick(zones)
            let client = index == 0 ? MailClient.thunderbird : MailClient(rawValue: rng.weighted(MailClient.weights))!
            let dateStyle: DateStyle
            switch rng.below(100) {
            case 0 ..< 70: dateStyle = .standard
            case 70 ..< 85: dateStyle = .zeroPadded
            case 85 ..< 97: dateStyle = .withComment
            default: dateStyle = .noWeekday
            }

            // Native writing language (used for some threads they start).
            let language: Language
            switch culture {
            case .latinAccented:
                language = ["mail.example.de", "web.example.de", "gmx.example", "posteo.example",
                            "uni-heidelberg.example"].contains(domainString) ? .german
                    : (domainString.hasSuffix(".fr") ? .french : (rng.chance(500) ? .german : .french))
            case .cyrillic: language = .russian
            case .japanese: language = .japanese
            case .chinese: language = .chinese
            default: language = .english
            }

            // Signature.
            let role = rng.pick(english.roles)
            let org = organization(domainString)
            var tail: [UInt8] = []
            tail.append(asciiLF)
            tail.put(role); tail.put(", "); tail.put(Array(org.utf8)); tail.append(asciiLF)
            tail.put("+"); tail.putDecimal(rng.range(1, 89)); tail.put(" 555 ")
            tail.putDecimal(rng.range(100, 999)); tail.put(" ")
            tail.putDecimal(rng.range(1000, 9999))
            var names: [[UInt8]?] = []
            var firstNames: [[UInt8]?] = []
            for charset in Charset.allCases {
                names.append(charset == .usASCII ? Array(asciiName.utf8) : convertFromUTF8(display, to: charset))
                firstNames.append(charset == .usASCII ? Array(firstAsciiCap.utf8)
                    : convertFromUTF8(first.display, to: charset))
            }

            result.append(Person(
                culture: culture, language: language, displayUTF8: displayBytes,
                asciiName: Array(asciiName.utf8),
                firstUTF8: Array(first.display.utf8), firstASCII: Array(firstAsciiCap.utf8),
                address: address, domainIndex: dIndex, mailbox: mailbox, mailboxIsEncoded: encoded,
                zoneMinutes: zone.0, zoneComment: Array(zone.1.utf8), observesDST: zone.2,
                dateStyle: dateStyle, client: client, signatureTail: tail,
                hasSignature: rng.chance(600), nameByCharset: names, firstByCharset: firstNames))
        }
        people = result
        domains = domainList
    }
}

private func capitalized(_ s: String) -> String {
    guard let f = s.first else { return s }
    return f.uppercased() + s.dropFirst()
}

private func sanitizeLocal(_ s: String) -> String {
    String(s.lowercased().unicodeScalars.filter {
        ($0.value >= 0x61 && $0.value <= 0x7A) || ($0.value >= 0x30 && $0.value <= 0x39)
    }.map { Character($0) })
}

private func organization(_ domain: String) -> String {
    let first = domain.split(separator: ".").first.map(String.init) ?? domain
    let generic: Set<String> = ["example", "mail", "web", "gmail", "outlook", "icloud", "fastmail", "proton",
                                "gmx", "posteo", "yandex", "rambler", "qq", "163", "naver", "daum", "cs"]
    if generic.contains(first) { return "Independent" }
    return capitalized(first.split(separator: "-").joined(separator: " "))
}

/// Appends the RFC 2047 form of a non-ASCII display name, in a charset typical
/// for the name's script.
func appendEncodedName(_ name: String, culture: Culture, rng: inout Xoshiro256, into out: inout [UInt8]) {
    let utf8 = Array(name.utf8)
    let latin1 = convertFromUTF8(name, to: .iso88591)
    let utf8Name = Array("UTF-8".utf8)
    let lowerUTF8 = Array("utf-8".utf8)
    func emitUTF8(_ style: EncodedWordStyle) {
        out.putEncodedWords(utf8, charset: rng.chance(800) ? utf8Name : lowerUTF8, style: style, utf8: true)
    }
    switch culture {
    case .latinAccented, .english:
        let r = rng.below(100)
        if let l1 = latin1, r < 40 {
            out.putEncodedWords(l1, charset: Array("ISO-8859-1".utf8), style: .q, utf8: false)
        } else if r < 75 {
            emitUTF8(.q)
        } else {
            emitUTF8(.base64)
        }
    case .cyrillic:
        let r = rng.below(100)
        if r < 30, let k = convertFromUTF8(name, to: .koi8r) {
            out.putEncodedWords(k, charset: Array("koi8-r".utf8), style: .base64, utf8: false)
        } else if r < 80 {
            emitUTF8(.base64)
        } else {
            emitUTF8(.q)
        }
    case .chinese:
        if rng.chance(250), let g = convertFromUTF8(name, to: .gb2312) {
            out.putEncodedWords(g, charset: Array("gb2312".utf8), style: .base64, utf8: false)
        } else {
            emitUTF8(.base64)
        }
    case .japanese:
        if rng.chance(200), let j = iconvFromUTF8(utf8, iconvName: "ISO-2022-JP"), j.count <= 45 {
            out.putEncodedWords(j, charset: Array("ISO-2022-JP".utf8), style: .base64, utf8: false)
        } else {
            emitUTF8(.base64)
        }
    case .korean:
        if rng.chance(200), let k = iconvFromUTF8(utf8, iconvName: "EUC-KR") {
            out.putEncodedWords(k, charset: Array("EUC-KR".utf8), style: .base64, utf8: false)
        } else {
            emitUTF8(.base64)
        }
    case .greek:
        if rng.chance(300), let g = iconvFromUTF8(utf8, iconvName: "ISO-8859-7") {
            out.putEncodedWords(g, charset: Array("ISO-8859-7".utf8), style: .q, utf8: false)
        } else {
            emitUTF8(rng.chance(500) ? .q : .base64)
        }
    }
}
