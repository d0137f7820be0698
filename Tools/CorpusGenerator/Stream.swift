// The message stream: decides threads, senders, folders and flags, and builds
// each message's bytes. Memory is bounded: only a pool of open threads (each
// at most 40 compact nodes) is kept.

package struct CorpusConfiguration: Sendable {
    /// Number of message files (mbox entries) to produce.
    package var messages: Int
    package var seed: UInt64
    /// Account number (0-based); each account has its own owner and cast.
    package var account: Int
    /// Size of the cast.
    package var people: Int

    package init(messages: Int, seed: UInt64, account: Int = 0, people: Int = 2000) {
        self.messages = messages
        self.seed = seed
        self.account = account
        self.people = people
    }
}

enum ThreadKind: UInt8 {
    case direct
    case listSwiftDev
    case listRustUsers
    case project
}

struct ThreadNode {
    var uid: UInt32
    var sender: UInt16
    var parent: Int16      // index in nodes, -1 for the root
    var depth: UInt8       // real depth in the corpus (root = 0)
    var children: UInt8
    var time: Int
}

struct ThreadState {
    var id: Int
    var kind: ThreadKind
    var language: Language
    var subjectSeed: UInt64
    var participants: [UInt16]
    var nodes: [ThreadNode]
    var target: Int
    var phantoms: Int       // ancestors that are not in the corpus
    var archived: Bool
    var forward: Bool
    var ccMeChance: Int     // per mille, list threads
}

struct MailingList {
    let name: [UInt8]
    let address: [UInt8]
    let listID: [UInt8]
    let tag: [UInt8]?
    let host: [UInt8]
    let folder: Folder
}

let mailingLists: [MailingList] = [
    MailingList(name: Array("swift-dev".utf8), address: Array("swift-dev@lists.swift.example".utf8),
                listID: Array("Swift development discussion <swift-dev.lists.swift.example>".utf8),
                tag: Array("[swift-dev] ".utf8), host: Array("lists.swift.example".utf8), folder: .listSwiftDev),
    MailingList(name: Array("rust-users".utf8), address: Array("rust-users@lists.rust.example".utf8),
                listID: Array("<rust-users.lists.rust.example>".utf8),
                tag: nil, host: Array("lists.rust.example".utf8), folder: .listRustUsers),
]

private enum BodyShape {
    case plain, html, alternative
}

private enum CTE {
    case sevenBit, eightBit, quotedPrintable, base64
}

private struct TextPartPlan {
    var html: Bool
    var charset: Charset
    var cte: CTE
    var cid: [UInt8]?
}

private enum BinaryKind: Int, CaseIterable {
    case pdf, png, jpeg, zip
}

private struct BinaryPlan {
    var kind: BinaryKind
    var size: Int
    var filename: [UInt8]       // UTF-8
    var cid: [UInt8]?
    var inline: Bool
}

private indirect enum Entity {
    case text(TextPartPlan)
    case multipart(subtype: StaticString, boundary: [UInt8], parts: [Entity], related: Bool)
    case binary(BinaryPlan)
}

/// Everything needed to write one message.
private struct Plan {
    var uid: Int
    var time: Int
    var sender: Int
    var to: [Int] = []
    var cc: [Int] = []
    var list: MailingList?
    var toList = false
    var threadIndex: Int = -1      // in active pool, -1 for none
    var nodeIndex: Int = -1        // this message's node (or -1: draft / singleton)
    var parentNode: Int = -1
    var language: Language = .english
    var charset: Charset = .usASCII
    var client: MailClient = .thunderbird
    var folder: Folder = .inbox
    var isDraft = false
    var ccMe = false
    var features: MessageFeatures = []
}

package final class CorpusStream {
    package let configuration: CorpusConfiguration
    let directory: Directory
    private var rng: Xoshiro256
    private let salt: UInt64
    private let me = 0

    package private(set) var slot = 0
    package private(set) var uniqueCount = 0
    package private(set) var threadCount = 0

    private var active: [ThreadState] = []
    private let maxActive = 48
    private var pending: (message: GeneratedMessage, folder: Folder)?

    // Scratch buffers, reused for every message.
    private var doc = Doc()
    private var raw: [UInt8] = []
    private var binary: [UInt8] = []
    private var header: [UInt8] = []
    private var body: [UInt8] = []
    private var refs: [Int] = []

    /// Thread being built for the current message (copied out of `active`).
    private var current: ThreadState?
    private var singleton = false

    package init(configuration: CorpusConfiguration) {
        self.configuration = configuration
        salt = mix64(configuration.seed, UInt64(configuration.account) &+ 0xACC0)
        directory = Directory(seed: configuration.seed, count: max(configuration.people, 16),
                              account: configuration.account)
        rng = Xoshiro256(seed: mix64(salt, 0x57AE_A3))
        header.reserveCapacity(4096)
        body.reserveCapacity(16384)
        raw.reserveCapacity(16384)
    }

    /// Mailbox owner address.
    package var ownerAddress: String { String(decoding: directory.people[me].address, as: UTF8.self) }

    // MARK: Stream

    package func next() -> GeneratedMessage? {
        if slot >= configuration.messages { return nil }
        if let p = pending {
            pending = nil
            var m = p.message
            m.folder = p.folder
            m.slot = slot
            m.isCopy = true
            let f = flags(for: p.folder, fromMe: false, isDraft: false)
            m.flags = f.flags
            m.isNew = f.isNew
            slot += 1
            return m
        }
        let m = generateUnique()
        slot += 1
        return m
    }

    // MARK: Time

    private func time(forSlot s: Int) -> Int {
        let n = max(configuration.messages, 1)
        let step = corpusSpanSeconds / n
        return corpusBaseEpoch + (s * corpusSpanSeconds) / n + rng.below(max(step, 1))
    }

    // MARK: Decisions

    private func generateUnique() -> GeneratedMessage {
        let uid = uniqueCount
        uniqueCount += 1
        let t = time(forSlot: slot)
        let r = rng.below(1000)
        if r < 22 {
            threadCount += 1
            return buildJunk(uid: uid, time: t)
        }
        if r < 80 {
            threadCount += 1
            return buildNotification(uid: uid, time: t)
        }
        return buildThreadMessage(uid: uid, time: t)
    }

    private func newThread(time: Int) -> ThreadState {
        threadCount += 1
        let kind: ThreadKind
        switch rng.below(100) {
        case 0 ..< 58: kind = .direct
        case 58 ..< 75: kind = .listSwiftDev
        case 75 ..< 90: kind = .listRustUsers
        default: kind = .project
        }
        let sizeClass = rng.weighted([45, 25, 18, 9, 3])
        let target: Int
        switch sizeClass {
        case 0: target = 1
        case 1: target = rng.range(2, 3)
        case 2: target = rng.range(4, 8)
        case 3: target = rng.range(9, 20)
        default: target = rng.range(21, 40)
        }
        var participants: [UInt16] = []
        let count = kind == .direct ? rng.range(1, 3) : rng.range(2, 6)
        let people = directory.people.count
        while participants.count < count {
            let p = UInt16(1 + rng.below(people - 1))
            if !participants.contains(p) { participants.append(p) }
        }
        var language = Language.english
        if kind == .direct || kind == .project {
            let native = directory.people[Int(participants[0])].language
            if native != .english && rng.chance(450) { language = native }
        }
        return ThreadState(
            id: threadCount - 1, kind: kind, language: language,
            subjectSeed: mix64(salt, UInt64(threadCount), 0x5B),
            participants: participants, nodes: [], target: target,
            phantoms: rng.chance(35) ? rng.range(1, 3) : 0,
            archived: kind == .direct && rng.chance(220),
            forward: kind == .direct && rng.chance(40),
            ccMeChance: kind == .direct || kind == .project ? 0 : (rng.chance(150) ? 700 : 40))
    }

    private func buildThreadMessage(uid: Int, time: Int) -> GeneratedMessage {
        var plan = Plan(uid: uid, time: time, sender: 0)
        let startNew = active.isEmpty || (active.count < maxActive && rng.chance(330))
        var thread: ThreadState
        var poolIndex = -1
        if startNew {
            thread = newThread(time: time)
        } else {
            poolIndex = rng.below(active.count)
            thread = active[poolIndex]
        }
        let isRoot = thread.nodes.isEmpty
        plan.language = thread.language
        if let list = listFor(thread.kind) {
            plan.list = list
            plan.toList = true
            plan.features.insert(.mailingList)
        }

        // Parent and sender.
        var parent = -1
        if !isRoot {
            parent = thread.nodes.count - 1
            if thread.nodes.count > 1 && rng.chance(280) { parent = rng.below(thread.nodes.count) }
            var tries = 0
            while Int(thread.nodes[parent].depth) >= 15 && tries < 8 {
                parent = rng.below(thread.nodes.count)
                tries += 1
            }
            if Int(thread.nodes[parent].depth) >= 15 { parent = 0 }
            if thread.nodes[parent].children > 0 { plan.features.insert(.fork) }
            plan.features.insert(.reply)
        }
        if thread.phantoms > 0 && isRoot { plan.features.insert([.missingParent, .reply]) }
        if thread.phantoms > 0 { plan.features.insert(.missingParent) }
        plan.parentNode = parent

        let meChance: Int
        switch thread.kind {
        case .direct: meChance = isRoot ? 150 : 400
        case .project: meChance = isRoot ? 120 : 250
        case .listSwiftDev, .listRustUsers: meChance = isRoot ? 10 : 40
        }
        let parentSender = parent >= 0 ? Int(thread.nodes[parent].sender) : -1
        if parentSender != me && rng.chance(meChance) {
            plan.sender = me
        } else {
            let candidates = thread.participants.map(Int.init).filter { $0 != parentSender }
            if !candidates.isEmpty {
                plan.sender = candidates[rng.below(candidates.count)]
            } else if rng.chance(800) {
                // A one-to-one conversation: the owner answers.
                plan.sender = me
            } else {
                // Occasionally a follow-up to one's own message.
                plan.sender = parentSender
            }
        }
        let sender = directory.people[plan.sender]
        plan.client = sender.client

        // Recipients.
        switch thread.kind {
        case .direct, .project:
            if plan.sender == me {
                plan.to = [parentSender >= 0 && parentSender != me ? parentSender : Int(thread.participants[0])]
            } else {
                plan.to = [me]
            }
            for p in thread.participants.map(Int.init) where p != plan.sender && !plan.to.contains(p) {
                if thread.kind == .project || rng.chance(450) { plan.cc.append(p) }
            }
        case .listSwiftDev, .listRustUsers:
            if parentSender >= 0 && parentSender != plan.sender && rng.chance(300) { plan.cc.append(parentSender) }
            if plan.sender != me && rng.chance(thread.ccMeChance) {
                plan.cc.append(me)
                plan.ccMe = true
            }
        }

        // Folder.
        if plan.sender == me {
            if rng.chance(30) {
                plan.isDraft = true
                plan.folder = .drafts
            } else {
                plan.folder = .sent
            }
        } else {
            switch thread.kind {
            case .direct: plan.folder = thread.archived ? .archive : .inbox
            case .project: plan.folder = .projectsAlpha
            case .listSwiftDev: plan.folder = .listSwiftDev
            case .listRustUsers: plan.folder = .listRustUsers
            }
            if (thread.kind == .direct || thread.kind == .project) && rng.chance(30) { plan.folder = .trash }
        }

        // Charset.
        plan.charset = chooseCharset(language: plan.language, sender: sender)

        // Register the node (drafts are never answered).
        current = thread
        if !plan.isDraft {
            let depth = parent >= 0 ? Int(thread.nodes[parent].depth) + 1 : 0
            if parent >= 0 { current!.nodes[parent].children &+= 1 }
            current!.nodes.append(ThreadNode(uid: UInt32(truncatingIfNeeded: uid), sender: UInt16(plan.sender),
                                             parent: Int16(parent), depth: UInt8(min(depth, 255)), children: 0,
                                             time: time))
            plan.nodeIndex = current!.nodes.count - 1
        }
        if thread.forward && isRoot { plan.features.insert(.forward) }

        let message = buildPersonal(plan: plan)

        // Keep or retire the thread.
        let updated = current!
        current = nil
        let done = updated.nodes.count >= updated.target
        if poolIndex >= 0 {
            if done {
                active.swapAt(poolIndex, active.count - 1)
                active.removeLast()
            } else {
                active[poolIndex] = updated
            }
        } else if !done {
            active.append(updated)
        }
        return message
    }

    private func listFor(_ kind: ThreadKind) -> MailingList? {
        switch kind {
        case .listSwiftDev: return mailingLists[0]
        case .listRustUsers: return mailingLists[1]
        default: return nil
        }
    }

    private func chooseCharset(language: Language, sender: Person) -> Charset {
        if language != .english {
            let options = language.charsets
            let c = options[rng.weighted(options.map { $0.1 })].0
            return languagePools.pool(language, c).usable ? c : .utf8
        }
        switch sender.client {
        case .gmail, .appleMail, .roundcube:
            return .utf8
        case .thunderbird:
            if sender.culture == .latinAccented && rng.chance(200) { return .iso88591 }
            return .utf8
        case .outlook:
            if sender.culture == .latinAccented && rng.chance(350) { return .windows1252 }
            if sender.culture == .cyrillic && rng.chance(300) { return .koi8r }
            return rng.chance(500) ? .usASCII : .utf8
        case .mutt:
            if sender.culture == .latinAccented && rng.chance(400) { return .iso88591 }
            return rng.chance(600) ? .usASCII : .utf8
        }
    }

    private func flags(for folder: Folder, fromMe: Bool, isDraft: Bool) -> (flags: MaildirFlags, isNew: Bool) {
        let n = max(configuration.messages, 1)
        let age = (slot * 1000) / n // 0 = oldest, 999 = newest
        var f: MaildirFlags = []
        switch folder {
        case .sent:
            f.insert(.seen)
            if rng.chance(10) { f.insert(.flagged) }
            return (f, false)
        case .drafts:
            f.insert(.draft)
            if rng.chance(900) { f.insert(.seen) }
            return (f, false)
        case .trash:
            if rng.chance(950) { f.insert(.seen) }
            if rng.chance(300) { f.insert(.trashed) }
            return (f, false)
        case .junk:
            if age >= 970 && rng.chance(500) { return ([], true) }
            if rng.chance(500) { f.insert(.seen) }
            return (f, false)
        case .inbox, .archive, .listSwiftDev, .listRustUsers, .projectsAlpha:
            let isList = folder == .listSwiftDev || folder == .listRustUsers
            if folder != .archive && age >= 985 && rng.chance(600) { return ([], true) }
            let seenChance = folder == .archive ? 995 : (age < 900 ? (isList ? 880 : 975) : 650)
            if rng.chance(seenChance) { f.insert(.seen) }
            if rng.chance(isList ? 8 : 45) { f.insert(.flagged) }
            if !isList && !fromMe && rng.chance(170) { f.insert(.replied) }
            return (f, false)
        }
    }

    // MARK: Shared header pieces

    private func putMessageID(_ uid: Int, domain: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        out.putHex(mix64(salt, UInt64(uid)), digits: 16)
        out.append(UInt8(ascii: "."))
        out.putDecimal(uid)
        out.append(UInt8(ascii: "@"))
        out.put(directory.domains[domain])
        out.append(UInt8(ascii: ">"))
    }

    private func putPhantomID(thread: Int, index: Int, domain: Int, into out: inout [UInt8]) {
        let n = 1_000_000_000 + thread * 4 + index
        out.append(UInt8(ascii: "<"))
        out.putHex(mix64(salt, UInt64(n), 0xFA47), digits: 16)
        out.append(UInt8(ascii: "."))
        out.putDecimal(n)
        out.append(UInt8(ascii: "@"))
        out.put(directory.domains[domain])
        out.append(UInt8(ascii: ">"))
    }

    private func zoneOffset(_ person: Person, epoch: Int) -> Int {
        guard person.observesDST else { return person.zoneMinutes }
        // Northern-hemisphere summer time, roughly April to October.
        let month = BrokenDownTime(epoch: epoch).month
        return (month >= 4 && month <= 10) ? person.zoneMinutes + 60 : person.zoneMinutes
    }

    private func putDate(_ person: Person, epoch: Int, into out: inout [UInt8]) {
        let offset = zoneOffset(person, epoch: epoch)
        var comment: [UInt8]? = nil
        if person.dateStyle == .withComment {
            comment = offset == person.zoneMinutes ? person.zoneComment : Self.summerComment(person.zoneComment)
        }
        out.putRFC5322Date(epoch: epoch, offsetMinutes: offset, style: person.dateStyle, zoneComment: comment)
    }

    private static func summerComment(_ c: [UInt8]) -> [UInt8] {
        switch String(decoding: c, as: UTF8.self) {
        case "CET": return Array("CEST".utf8)
        case "WET": return Array("WEST".utf8)
        case "EET": return Array("EEST".utf8)
        case "GMT": return Array("BST".utf8)
        case "EST": return Array("EDT".utf8)
        case "CST": return Array("CDT".utf8)
        case "PST": return Array("PDT".utf8)
        default: return c
        }
    }

    private func putAddressHeader(_ name: StaticString, people: [Int], extra: [UInt8]? = nil, into out: inout [UInt8]) {
        out.put(name)
        out.put(": ")
        var col = name.utf8CodeUnitCount + 2
        var first = true
        func add(_ mailbox: [UInt8], _ out: inout [UInt8]) {
            if !first {
                if col + mailbox.count + 2 > 78 {
                    out.put(",")
                    out.putCRLF()
                    out.put(" ")
                    col = 1
                } else {
                    out.put(", ")
                    col += 2
                }
            }
            first = false
            out.put(mailbox)
            if let lf = mailbox.lastIndex(of: asciiLF) {
                col = mailbox.count - lf - 1
            } else {
                col += mailbox.count
            }
        }
        if let extra { add(extra, &out) }
        for p in people { add(directory.people[p].mailbox, &out) }
        out.putCRLF()
    }

    private func putReceived(senderDomain: [UInt8], via list: MailingList?, time: Int, into out: inout [UInt8]) {
        let meDomain = directory.domains[directory.people[me].domainIndex]
        let delivered = time + 2 + rng.below(90)
        let relay = list?.host ?? senderDomain
        let mx = rng.range(1, 4)
        out.put("Received: from mx")
        out.putDecimal(mx)
        out.append(UInt8(ascii: ".")); out.put(relay)
        out.put(" (mx"); out.putDecimal(mx); out.append(UInt8(ascii: ".")); out.put(relay)
        out.put(" [")
        out.put(rng.chance(500) ? "203.0.113." : "198.51.100.")
        out.putDecimal(rng.range(2, 254))
        out.put("])"); out.putCRLF()
        out.put("\tby mx.")
        out.put(meDomain)
        out.put(" (Postfix) with ESMTPS id 4")
        putAlnum(11, uppercase: true, into: &out)
        out.putCRLF()
        out.put("\tfor <"); out.put(directory.people[me].address); out.put(">; ")
        out.putRFC5322Date(epoch: delivered, offsetMinutes: 0, style: .standard)
        out.putCRLF()
        if list != nil {
            out.put("Received: from mail."); out.put(senderDomain)
            out.put(" (mail."); out.put(senderDomain); out.put(" [192.0.2.")
            out.putDecimal(rng.range(2, 254)); out.put("])"); out.putCRLF()
            out.put("\tby "); out.put(relay); out.put(" (Mailman) with ESMTP id ")
            putAlnum(12, uppercase: false, into: &out)
            out.put("; "); out.putRFC5322Date(epoch: time + 1, offsetMinutes: 0, style: .standard)
            out.putCRLF()
        } else if rng.chance(500) {
            out.put("Received: by mail-"); putAlnum(6, uppercase: false, into: &out)
            out.append(UInt8(ascii: ".")); out.put(senderDomain)
            out.put(" with SMTP id "); putAlnum(16, uppercase: false, into: &out)
            out.put(";"); out.putCRLF()
            out.put("        "); out.putRFC5322Date(epoch: time, offsetMinutes: 0, style: .standard)
            out.putCRLF()
        }
    }

    private func putAlnum(_ n: Int, uppercase: Bool, into out: inout [UInt8]) {
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"
        let span = uppercase ? 36 : 62
        alphabet.withUTF8Buffer { a in
            for _ in 0 ..< n { out.append(a[rng.below(span)]) }
        }
    }

    private func putDKIM(domain: [UInt8], time: Int, into out: inout [UInt8]) {
        out.put("DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;"); out.putCRLF()
        out.put("        d="); out.put(domain); out.put("; s=")
        out.put(rng.chance(500) ? "20230601" : "selector1")
        out.put("; t="); out.putDecimal(time); out.put(";"); out.putCRLF()
        out.put("        h=from:to:subject:date:message-id:mime-version:content-type;"); out.putCRLF()
        binary.removeAll(keepingCapacity: true)
        rng.appendBytes(32, to: &binary)
        out.put("        bh=")
        out.putBase64(binary, lineLength: 0)
        out.put(";"); out.putCRLF()
        binary.removeAll(keepingCapacity: true)
        rng.appendBytes(192, to: &binary)
        raw.removeAll(keepingCapacity: true)
        raw.putBase64(binary, lineLength: 0)
        out.put("        b=")
        var i = 0
        while i < raw.count {
            let end = min(raw.count, i + 68)
            out.append(contentsOf: raw[i ..< end])
            if end < raw.count { out.putCRLF(); out.put("         ") }
            i = end
        }
        out.putCRLF()
    }

    // MARK: Subjects

    /// Writes the base subject of a thread (may be RFC 2047 encoded).
    private func putBaseSubject(_ thread: ThreadState, charset: Charset, into out: inout [UInt8]) -> Bool {
        var s = Xoshiro256(seed: thread.subjectSeed)
        if thread.language != .english {
            let pool = languagePools.pool(thread.language, charset)
            let i = s.below(pool.subjects.count)
            if charset == .utf8 && s.chance(400) { out.put(pool.subjectsQ[i]) } else { out.put(pool.subjects[i]) }
            return true
        }
        let v = english
        raw.removeAll(keepingCapacity: true)
        switch s.below(10) {
        case 0: raw.put("Question about the "); raw.put(s.pick(v.nouns))
        case 1:
            raw.put(s.pick(v.adjectives)); raw.put(" "); raw.put(s.pick(v.nouns)); raw.put(" in the ")
            raw.put(s.pick(v.nouns))
        case 2:
            raw.put(s.pick(v.nouns)); raw.put(" "); raw.put(s.pick(v.verbs3)); raw.put(" ")
            raw.put(s.pick(v.nouns))
        case 3: raw.put("Proposal: "); raw.put(s.pick(v.verbsBase)); raw.put(" the "); raw.put(s.pick(v.nouns))
        case 4: raw.put("Meeting notes: "); raw.put(s.pick(v.nouns)); raw.put(" review")
        case 5: raw.put("Update on the "); raw.put(s.pick(v.adjectives)); raw.put(" "); raw.put(s.pick(v.nouns))
        case 6: raw.put("Help with "); raw.put(s.pick(v.adjectives)); raw.put(" "); raw.put(s.pick(v.nouns))
        case 7: raw.put("Can we "); raw.put(s.pick(v.verbsBase)); raw.put(" the "); raw.put(s.pick(v.nouns)); raw.put("?")
        case 8: raw.put("Heads-up: "); raw.put(s.pick(v.nouns)); raw.put(" "); raw.put(s.pick(v.tails))
        default:
            raw.put(s.pick(v.nouns)); raw.put(" for "); raw.put(s.pick(v.nouns)); raw.put(" (v")
            raw.putDecimal(s.range(1, 12)); raw.put(")")
        }
        if raw[0] >= UInt8(ascii: "a") && raw[0] <= UInt8(ascii: "z") { raw[0] -= 32 }
        let decoration = s.below(1000)
        if decoration < 20 {
            raw.put(" \u{2013} follow-up")
        } else if decoration < 30 {
            raw.put(" \u{2714}")
        } else if decoration < 40 {
            raw.put(" (caf\u{E9} meetup)")
        }
        if decoration < 40 {
            out.putEncodedWords(raw, charset: Array("UTF-8".utf8), style: s.chance(500) ? .q : .base64, utf8: true)
            return true
        }
        if decoration < 60 {
            // Gratuitously encoded ASCII (some clients do that).
            out.putEncodedWords(raw, charset: Array("utf-8".utf8), style: .q, utf8: true)
            return true
        }
        out.put(raw)
        return false
    }

    private func putReplyPrefix(language: Language, into out: inout [UInt8]) {
        switch language {
        case .german:
            out.put(rng.chance(600) ? "AW: " : "Aw: ")
            return
        case .french:
            out.put(rng.chance(500) ? "RE: " : "Re: ")
            return
        default:
            break
        }
        switch rng.below(100) {
        case 0 ..< 76: out.put("Re: ")
        case 76 ..< 85: out.put("RE: ")
        case 85 ..< 89: out.put("Aw: ")
        case 89 ..< 91: out.put("AW: ")
        case 91 ..< 94: out.put("Re: Re: ")
        case 94 ..< 95: out.put("SV: ")
        case 95 ..< 96: out.put("Re[2]: ")
        case 96 ..< 97: out.put("R: ")
        default: out.put("re: ")
        }
    }

    /// Full Subject header for a thread message; returns whether encoded words were used.
    private func putSubjectHeader(_ thread: ThreadState, plan: Plan, into out: inout [UInt8]) -> Bool {
        out.put("Subject: ")
        let isReply = plan.features.contains(.reply)
        let isForwardRoot = plan.features.contains(.forward)
        var tag: [UInt8]? = plan.list?.tag
        if thread.kind == .project && thread.subjectSeed & 3 == 0 { tag = Array("[Alpha] ".utf8) }
        let tagFirst = thread.subjectSeed & 4 == 0
        if let tag, tagFirst { out.put(tag) }
        if isReply {
            putReplyPrefix(language: thread.language, into: &out)
            if thread.forward { out.put("Fwd: ") }
        } else if isForwardRoot {
            switch rng.below(4) {
            case 0: out.put("FW: ")
            case 1: out.put(thread.language == .german ? "WG: " : "Fw: ")
            default: out.put("Fwd: ")
            }
        }
        if let tag, !tagFirst { out.put(tag) }
        let encoded = putBaseSubject(thread, charset: plan.charset, into: &out)
        out.putCRLF()
        return encoded
    }

    // MARK: Personal messages

    private func buildPersonal(plan inPlan: Plan) -> GeneratedMessage {
        var plan = inPlan
        let thread = current!
        let sender = directory.people[plan.sender]
        let senderDomain = directory.domains[sender.domainIndex]
        let fromMe = plan.sender == me

        // ---- Body document ----
        doc.reset()
        let charset = plan.charset
        let pool = languagePools.pool(plan.language, charset)
        let ownSeed = mix64(salt, UInt64(plan.uid), 0xB0D7)
        // Whom the greeting addresses: the direct recipient, or on a list the
        // author being answered (else "all").
        let parentAuthor = plan.parentNode >= 0 ? Int(thread.nodes[plan.parentNode].sender) : -1
        let recipientIndex = plan.toList ? (parentAuthor >= 0 && parentAuthor != plan.sender ? parentAuthor : -1)
                                         : (plan.to.first ?? me)
        let recipient = directory.people[max(recipientIndex, 0)]
        let topPost: Bool
        switch plan.client {
        case .outlook, .gmail, .appleMail: topPost = rng.chance(850)
        default: topPost = rng.chance(150)
        }
        let quoting = plan.parentNode >= 0 && rng.chance(850)

        func greeting() {
            guard rng.chance(650) else { return }
            let m = doc.mark
            if plan.language == .english {
                doc.bytes.put(rng.pick(english.greetings))
                if recipientIndex < 0 || (plan.toList && rng.chance(500)) {
                    doc.bytes.put(" all,")
                } else {
                    doc.bytes.put(" "); doc.bytes.put(recipient.first(in: charset)); doc.bytes.put(",")
                }
            } else {
                doc.bytes.put(pool.greeting)
                if plan.language.wrapsWords && recipientIndex >= 0 {
                    doc.bytes.put(" "); doc.bytes.put(recipient.first(in: charset)); doc.bytes.put(",")
                }
            }
            doc.close(m, .pre, level: 0)
        }
        func ownText() {
            appendOwnText(seed: ownSeed, language: plan.language, charset: charset, to: &doc, level: 0)
            if rng.chance10k(60) {
                // Lines that mbox readers must escape (and one already escaped).
                let m = doc.mark
                doc.bytes.put("From the archive, the original report said:")
                doc.bytes.append(asciiLF)
                doc.bytes.put(">From here on it is guesswork.")
                doc.close(m, .pre, level: 0)
            }
        }
        func closing() {
            guard rng.chance(600) else { return }
            let m = doc.mark
            doc.bytes.put(plan.language == .english ? rng.pick(english.closings) : pool.closing)
            doc.bytes.append(asciiLF)
            doc.bytes.put(sender.first(in: charset))
            doc.close(m, .pre, level: 0)
        }
        func signature() {
            guard sender.hasSignature else { return }
            let m = doc.mark
            doc.bytes.put(sender.name(in: charset))
            doc.bytes.put(sender.signatureTail)
            doc.close(m, .signature, level: 0)
            plan.features.insert(.signature)
        }
        func attribution(node: ThreadNode, level: Int) {
            let author = directory.people[Int(node.sender)]
            let m = doc.mark
            if plan.language == .english {
                doc.bytes.put("On ")
                doc.bytes.putAttributionDate(epoch: node.time, offsetMinutes: zoneOffset(sender, epoch: node.time))
                doc.bytes.put(", ")
                doc.bytes.put(author.name(in: charset))
                doc.bytes.put(" <"); doc.bytes.put(author.address); doc.bytes.put("> wrote:")
            } else {
                doc.bytes.put(pool.attribution.0)
                doc.bytes.putNumericDate(epoch: node.time, offsetMinutes: zoneOffset(sender, epoch: node.time))
                doc.bytes.put(pool.attribution.1)
                doc.bytes.put(author.name(in: charset))
                doc.bytes.put(pool.attribution.2)
            }
            doc.close(m, .pre, level: level)
        }
        func quotes() {
            guard quoting else { return }
            let parent = thread.nodes[plan.parentNode]
            attribution(node: parent, level: 0)
            appendOwnText(seed: mix64(salt, UInt64(parent.uid), 0xB0D7), language: plan.language,
                          charset: charset, to: &doc, level: 1, maxParagraphs: 3)
            if parent.parent >= 0 && rng.chance(350) {
                let grand = thread.nodes[Int(parent.parent)]
                attribution(node: grand, level: 1)
                appendOwnText(seed: mix64(salt, UInt64(grand.uid), 0xB0D7), language: plan.language,
                              charset: charset, to: &doc, level: 2, maxParagraphs: 2)
            }
            plan.features.insert(.quotedReply)
        }
        func forwarded() {
            let m = doc.mark
            let original = directory.people[Int(thread.participants.last!)]
            doc.bytes.put("---------- Forwarded message ---------"); doc.bytes.append(asciiLF)
            doc.bytes.put("From: "); doc.bytes.put(original.name(in: charset))
            doc.bytes.put(" <"); doc.bytes.put(original.address); doc.bytes.put(">"); doc.bytes.append(asciiLF)
            doc.bytes.put("Date: ")
            doc.bytes.putAttributionDate(epoch: plan.time - 86_400 * rng.range(1, 20), offsetMinutes: 0)
            doc.bytes.append(asciiLF)
            doc.bytes.put("To: "); doc.bytes.put(sender.address)
            doc.close(m, .pre, level: 0)
            appendOwnText(seed: mix64(salt, UInt64(thread.id), 0xF0F0), language: plan.language,
                          charset: charset, to: &doc, level: 0, maxParagraphs: 2)
        }

        if plan.features.contains(.forward) {
            greeting()
            let m = doc.mark
            if plan.language == .english {
                englishSentence(&rng, into: &doc.bytes, allowOpener: true)
            } else {
                doc.bytes.put(pool.sentences[rng.below(pool.sentences.count)])
            }
            doc.close(m, .text, level: 0)
            closing()
            signature()
            forwarded()
        } else if topPost || !quoting {
            greeting(); ownText(); closing(); signature(); quotes()
        } else {
            quotes(); greeting(); ownText(); closing(); signature()
        }

        // ---- Entity plan ----
        let shape = chooseShape(client: plan.client)
        let withAttachment = rng.chance10k(300)
        let withInline = !withAttachment && rng.chance10k(105)
        let entity = makeEntity(shape: shape, charset: charset, client: plan.client, attachment: withAttachment,
                                inlineImage: withInline, language: plan.language, domain: senderDomain,
                                features: &plan.features)

        // ---- Headers ----
        header.removeAll(keepingCapacity: true)
        var envelope = sender.address
        if !fromMe {
            if let list = plan.list {
                envelope = list.name + Array("-bounces@".utf8) + list.host
            }
            header.put("Return-Path: <"); header.put(envelope); header.put(">"); header.putCRLF()
            header.put("Delivered-To: "); header.put(directory.people[me].address); header.putCRLF()
            putReceived(senderDomain: senderDomain, via: plan.list, time: plan.time, into: &header)
            if rng.chance(350) { putDKIM(domain: senderDomain, time: plan.time, into: &header) }
        }
        var encodedHeader = false
        let order = Self.headerOrder(plan.client)
        for key in order {
            switch key {
            case .date:
                header.put("Date: "); putDate(sender, epoch: plan.time, into: &header); header.putCRLF()
            case .from:
                putAddressHeader("From", people: [plan.sender], into: &header)
                if sender.mailboxIsEncoded { encodedHeader = true }
                if !isASCII(sender.mailbox) { plan.features.insert(.rawUTF8Header) }
            case .to:
                if plan.toList, let list = plan.list {
                    putAddressHeader("To", people: [], extra: list.address, into: &header)
                } else {
                    putAddressHeader("To", people: plan.to, into: &header)
                }
            case .cc:
                if !plan.cc.isEmpty { putAddressHeader("Cc", people: plan.cc, into: &header) }
            case .subject:
                if putSubjectHeader(thread, plan: plan, into: &header) { encodedHeader = true }
            case .messageID:
                header.put(plan.client == .appleMail ? "Message-Id: " : "Message-ID: ")
                putMessageID(plan.uid, domain: sender.domainIndex, into: &header); header.putCRLF()
            case .inReplyTo:
                putInReplyTo(thread: thread, plan: plan)
            case .references:
                putReferences(thread: thread, plan: &plan)
            case .mimeVersion:
                header.put(plan.client == .appleMail ? "Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.300.61.1.2\\))"
                                                     : "MIME-Version: 1.0")
                header.putCRLF()
            case .agent:
                if let a = plan.client.agentHeader { header.put(a); header.putCRLF() }
            case .content:
                writeEntityHeaders(entity, into: &header)
            case .outlookExtras:
                header.put("Thread-Topic: ")
                let m = header.count
                _ = putBaseSubject(thread, charset: charset, into: &header)
                if header.count == m { header.put("(no subject)") }
                header.putCRLF()
                header.put("Thread-Index: ")
                binary.removeAll(keepingCapacity: true)
                rng.appendBytes(22, to: &binary)
                header.putBase64(binary, lineLength: 0); header.putCRLF()
                header.put("Accept-Language: en-US"); header.putCRLF()
                header.put("Content-Language: "); header.put(Self.languageTag(plan.language)); header.putCRLF()
            }
        }
        if let list = plan.list, !fromMe {
            header.put("List-Id: "); header.put(list.listID); header.putCRLF()
            header.put("List-Unsubscribe: <https://"); header.put(list.host); header.put("/mailman/options/")
            header.put(list.name); header.put(">,"); header.putCRLF()
            header.put(" <mailto:"); header.put(list.name); header.put("-request@"); header.put(list.host)
            header.put("?subject=unsubscribe>"); header.putCRLF()
            header.put("List-Archive: <https://"); header.put(list.host); header.put("/pipermail/")
            header.put(list.name); header.put("/>"); header.putCRLF()
            header.put("List-Post: <mailto:"); header.put(list.address); header.put(">"); header.putCRLF()
            header.put("Precedence: list"); header.putCRLF()
            header.put("Sender: \""); header.put(list.name); header.put("\" <"); header.put(envelope)
            header.put(">"); header.putCRLF()
        }
        if plan.isDraft {
            header.put("X-Mozilla-Draft-Info: internal/draft; vcard=0; receipt=0; DSN=0; uuencode=0"); header.putCRLF()
        }
        if encodedHeader { plan.features.insert(.encodedWords) }
        if plan.features.contains(.missingParent) && thread.phantoms == 0 { plan.features.remove(.missingParent) }

        // ---- Body ----
        body.removeAll(keepingCapacity: true)
        writeEntityBody(entity, into: &body, features: &plan.features)

        return finish(plan: plan, fromMe: fromMe, envelope: envelope, threadID: thread.id)
    }

    private func finish(plan: Plan, fromMe: Bool, envelope: [UInt8], threadID: Int) -> GeneratedMessage {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(header.count + 2 + body.count)
        bytes.append(contentsOf: header)
        bytes.putCRLF()
        bytes.append(contentsOf: body)
        var features = plan.features
        if scanFromLines(body) { features.insert(.fromLine) }
        let f = flags(for: plan.folder, fromMe: fromMe, isDraft: plan.isDraft)
        let delivered = fromMe ? plan.time : plan.time + 5
        // Cross-posts: the same bytes in a second folder.
        if slot + 1 < configuration.messages {
            var copyFolder: Folder? = nil
            if plan.ccMe && plan.list != nil {
                copyFolder = .inbox
            } else if plan.folder == .inbox && rng.chance(25) {
                copyFolder = .archive
            } else if plan.folder == .projectsAlpha && rng.chance(60) {
                copyFolder = .inbox
            }
            if copyFolder != nil { features.insert(.crossPost) }
            let message = GeneratedMessage(
                bytes: bytes, headerLength: header.count, folder: plan.folder, flags: f.flags, isNew: f.isNew,
                timestamp: delivered, envelopeSender: envelope, slot: slot, uniqueIndex: plan.uid,
                threadID: threadID, isCopy: false, features: features)
            if let copyFolder { pending = (message, copyFolder) }
            return message
        }
        return GeneratedMessage(
            bytes: bytes, headerLength: header.count, folder: plan.folder, flags: f.flags, isNew: f.isNew,
            timestamp: delivered, envelopeSender: envelope, slot: slot, uniqueIndex: plan.uid,
            threadID: threadID, isCopy: false, features: features)
    }

    /// Does any line match `^>*From `?
    private func scanFromLines(_ b: [UInt8]) -> Bool {
        b.withUnsafeBufferPointer { p in
            let n = p.count
            var lineStart = 0
            while lineStart < n {
                var j = lineStart
                while j < n && p[j] == UInt8(ascii: ">") { j += 1 }
                if j + 5 <= n && p[j] == UInt8(ascii: "F") && p[j + 1] == UInt8(ascii: "r")
                    && p[j + 2] == UInt8(ascii: "o") && p[j + 3] == UInt8(ascii: "m") && p[j + 4] == UInt8(ascii: " ") {
                    return true
                }
                guard let lf = findByte(asciiLF, in: p, from: j) else { return false }
                lineStart = lf + 1
            }
            return false
        }
    }

    private func putInReplyTo(thread: ThreadState, plan: Plan) {
        guard plan.features.contains(.reply) else { return }
        if rng.chance(20) { return } // some clients omit it
        header.put("In-Reply-To: ")
        if plan.parentNode >= 0 {
            let p = thread.nodes[plan.parentNode]
            putMessageID(Int(p.uid), domain: directory.people[Int(p.sender)].domainIndex, into: &header)
        } else {
            putPhantomID(thread: thread.id, index: thread.phantoms - 1,
                         domain: directory.people[Int(thread.participants[0])].domainIndex, into: &header)
        }
        header.putCRLF()
    }

    private func putReferences(thread: ThreadState, plan: inout Plan) {
        guard plan.features.contains(.reply) else { return }
        if rng.chance(30) { return } // In-Reply-To only (older clients)
        header.put("References: ")
        if rng.chance(9) {
            plan.features.insert(.brokenReferences)
            putBrokenReferences(thread: thread, plan: plan)
            header.putCRLF()
            return
        }
        var first = true
        func sep() {
            if !first { header.putCRLF(); header.put(" ") }
            first = false
        }
        let phantomDomain = directory.people[Int(thread.participants[0])].domainIndex
        for k in 0 ..< thread.phantoms {
            sep()
            putPhantomID(thread: thread.id, index: k, domain: phantomDomain, into: &header)
        }
        refs.removeAll(keepingCapacity: true)
        var n = plan.parentNode
        while n >= 0 {
            refs.append(n)
            n = Int(thread.nodes[n].parent)
        }
        for idx in refs.reversed() {
            let node = thread.nodes[idx]
            sep()
            putMessageID(Int(node.uid), domain: directory.people[Int(node.sender)].domainIndex, into: &header)
        }
        header.putCRLF()
    }

    private func putBrokenReferences(thread: ThreadState, plan: Plan) {
        switch rng.below(6) {
        case 0:
            // Unterminated message id.
            header.put("<"); header.putHex(rng.next(), digits: 16); header.put("@mail")
        case 1:
            header.put("not a message id at all")
        case 2:
            if plan.parentNode >= 0 {
                let p = thread.nodes[plan.parentNode]
                putMessageID(Int(p.uid), domain: directory.people[Int(p.sender)].domainIndex, into: &header)
            }
            header.put(" <"); header.putHex(rng.next(), digits: 12)
        case 3:
            header.put("<>")
        case 4:
            header.put("=?UTF-8?B?"); binary.removeAll(keepingCapacity: true)
            rng.appendBytes(12, to: &binary); header.putBase64(binary, lineLength: 0); header.put("?=")
        default:
            header.putHex(rng.next(), digits: 16); header.put("@"); header.putHex(rng.next(), digits: 8)
            header.put(".invalid (lost in transit)")
        }
    }

    private enum HeaderKey {
        case date, from, to, cc, subject, messageID, inReplyTo, references, mimeVersion, agent, content
        case outlookExtras
    }

    private static func headerOrder(_ client: MailClient) -> [HeaderKey] {
        switch client {
        case .thunderbird:
            return [.messageID, .date, .mimeVersion, .agent, .subject, .to, .cc, .references, .from,
                    .inReplyTo, .content]
        case .appleMail:
            return [.from, .content, .mimeVersion, .subject, .date, .references, .to, .cc, .inReplyTo,
                    .messageID, .agent]
        case .outlook:
            return [.from, .to, .cc, .subject, .outlookExtras, .date, .messageID, .references, .inReplyTo,
                    .agent, .content, .mimeVersion]
        case .gmail:
            return [.mimeVersion, .references, .inReplyTo, .from, .date, .messageID, .subject, .to, .cc,
                    .content]
        case .mutt:
            return [.date, .from, .to, .cc, .subject, .messageID, .references, .mimeVersion, .content,
                    .inReplyTo, .agent]
        case .roundcube:
            return [.mimeVersion, .date, .from, .to, .cc, .subject, .inReplyTo, .references, .messageID,
                    .agent, .content]
        }
    }

    private static func languageTag(_ l: Language) -> [UInt8] {
        switch l {
        case .english: return Array("en-US".utf8)
        case .german: return Array("de-DE".utf8)
        case .french: return Array("fr-FR".utf8)
        case .russian: return Array("ru-RU".utf8)
        case .japanese: return Array("ja-JP".utf8)
        case .chinese: return Array("zh-CN".utf8)
        }
    }

    // MARK: MIME structure

    private func chooseShape(client: MailClient) -> BodyShape {
        let r = rng.below(100)
        switch client {
        case .mutt: return r < 96 ? .plain : .alternative
        case .thunderbird: return r < 55 ? .plain : (r < 99 ? .alternative : .html)
        case .appleMail: return r < 40 ? .plain : (r < 96 ? .alternative : .html)
        case .outlook: return r < 6 ? .plain : (r < 93 ? .alternative : .html)
        case .gmail: return r < 8 ? .plain : (r < 99 ? .alternative : .html)
        case .roundcube: return r < 70 ? .plain : (r < 94 ? .alternative : .html)
        }
    }

    private func boundary(_ client: MailClient) -> [UInt8] {
        var b: [UInt8] = []
        switch client {
        case .thunderbird:
            b.put("------------"); putAlnum(24, uppercase: false, into: &b)
        case .appleMail:
            b.put("Apple-Mail=_")
            b.putHex(rng.next(), digits: 8, uppercase: true); b.put("-")
            b.putHex(rng.next(), digits: 4, uppercase: true); b.put("-")
            b.putHex(rng.next(), digits: 4, uppercase: true); b.put("-")
            b.putHex(rng.next(), digits: 4, uppercase: true); b.put("-")
            b.putHex(rng.next(), digits: 12, uppercase: true)
        case .outlook:
            b.put("_000_"); putAlnum(20, uppercase: true, into: &b); b.put("_")
        case .gmail:
            b.put("000000000000"); b.putHex(rng.next(), digits: 14)
        case .mutt:
            putAlnum(16, uppercase: false, into: &b)
        case .roundcube:
            b.put("=_"); b.putHex(rng.next(), digits: 16); b.putHex(rng.next(), digits: 16)
        }
        return b
    }

    private func chooseCTE(client: MailClient, charset: Charset, html: Bool) -> CTE {
        if charset == .usASCII { return (client == .outlook || (html && client != .thunderbird)) ? .quotedPrintable : .sevenBit }
        if charset == .shiftJIS { return .base64 }
        let r = rng.below(100)
        switch client {
        case .gmail: return r < 65 ? .quotedPrintable : .base64
        case .outlook: return r < 70 ? .quotedPrintable : .base64
        case .appleMail: return .quotedPrintable
        case .thunderbird: return r < 75 ? .eightBit : (r < 90 ? .quotedPrintable : .base64)
        case .mutt: return r < 60 ? .eightBit : .quotedPrintable
        case .roundcube: return r < 80 ? .quotedPrintable : .base64
        }
    }

    private func makeEntity(shape: BodyShape, charset: Charset, client: MailClient, attachment: Bool,
                            inlineImage: Bool, language: Language, domain: [UInt8],
                            features: inout MessageFeatures) -> Entity {
        if charset.isLegacy { features.insert(.legacyCharset) }
        func text(_ html: Bool, cid: [UInt8]? = nil) -> Entity {
            .text(TextPartPlan(html: html, charset: charset, cte: chooseCTE(client: client, charset: charset, html: html),
                               cid: cid))
        }
        var inner: Entity
        if inlineImage {
            let kind: BinaryKind = rng.chance(700) ? .png : .jpeg
            var filename: [UInt8] = []
            filename.put("image00"); filename.putDecimal(rng.range(1, 9))
            filename.put(kind == .png ? ".png" : ".jpg")
            var cid = filename
            cid.put("@")
            cid.putHex(rng.next(), digits: 8, uppercase: true); cid.put(".")
            cid.putHex(rng.next(), digits: 8, uppercase: true)
            let image = BinaryPlan(kind: kind, size: rng.range(5_000, 40_000), filename: filename, cid: cid,
                                   inline: true)
            let related = Entity.multipart(subtype: "related", boundary: boundary(client),
                                           parts: [text(true, cid: cid), .binary(image)], related: true)
            inner = .multipart(subtype: "alternative", boundary: boundary(client), parts: [text(false), related],
                               related: false)
            features.insert([.inlineImage, .alternative])
        } else {
            switch shape {
            case .plain: inner = text(false)
            case .html:
                inner = text(true)
                features.insert(.htmlOnly)
            case .alternative:
                inner = .multipart(subtype: "alternative", boundary: boundary(client), parts: [text(false), text(true)],
                                   related: false)
                features.insert(.alternative)
            }
        }
        if attachment {
            var parts = [inner]
            let count = rng.chance(200) ? 2 : 1
            for _ in 0 ..< count {
                parts.append(.binary(makeAttachment(language: language)))
            }
            inner = .multipart(subtype: "mixed", boundary: boundary(client), parts: parts, related: false)
            features.insert(.attachment)
        }
        return inner
    }

    /// Attachment sizes are log-uniform between 5 KB and 200 KB.
    private static let sizeEdges: [Int] = {
        var edges = [5_000]
        for _ in 0 ..< 16 { edges.append(edges.last! * 12_591 / 10_000) }
        return edges
    }()

    private func makeAttachment(language: Language) -> BinaryPlan {
        let bucket = rng.below(16)
        let lo = Self.sizeEdges[bucket], hi = Self.sizeEdges[bucket + 1]
        let size = min(200_000, rng.range(lo, hi))
        let kind = BinaryKind(rawValue: rng.weighted([45, 25, 20, 10]))!
        var name: [UInt8] = []
        if rng.chance(120) {
            let stems = ["Übersicht", "отчёт", "報告書", "报告", "résumé", "presentación"]
            name.put(Array(stems[rng.below(stems.count)].utf8))
        } else {
            name.put(rng.pick(english.fileStems))
        }
        name.put("-"); name.putDecimal(rng.range(1, 2025))
        switch kind {
        case .pdf: name.put(".pdf")
        case .png: name.put(".png")
        case .jpeg: name.put(".jpg")
        case .zip: name.put(".zip")
        }
        return BinaryPlan(kind: kind, size: size, filename: name, cid: nil, inline: false)
    }

    private func writeEntityHeaders(_ entity: Entity, into out: inout [UInt8]) {
        switch entity {
        case .text(let t):
            out.put(t.html ? "Content-Type: text/html; charset=" : "Content-Type: text/plain; charset=")
            let quoted = (t.cte == .quotedPrintable || t.cte == .base64) ? true : t.charset.rawValue & 1 == 0
            if quoted { out.put("\"") }
            out.put(t.charset.mimeName)
            if quoted { out.put("\"") }
            if !t.html && t.cte != .base64 && t.charset == .utf8 && t.cte == .eightBit { out.put("; format=flowed") }
            out.putCRLF()
            switch t.cte {
            case .sevenBit:
                if t.charset == .usASCII { out.put("Content-Transfer-Encoding: 7bit"); out.putCRLF() }
            case .eightBit: out.put("Content-Transfer-Encoding: 8bit"); out.putCRLF()
            case .quotedPrintable: out.put("Content-Transfer-Encoding: quoted-printable"); out.putCRLF()
            case .base64: out.put("Content-Transfer-Encoding: base64"); out.putCRLF()
            }
        case .multipart(let subtype, let boundary, _, let related):
            out.put("Content-Type: multipart/"); out.put(subtype); out.put(";"); out.putCRLF()
            if related { out.put("\ttype=\"text/html\";"); out.putCRLF() }
            out.put("\tboundary=\""); out.put(boundary); out.put("\""); out.putCRLF()
        case .binary(let b):
            out.put("Content-Type: ")
            switch b.kind {
            case .pdf: out.put("application/pdf")
            case .png: out.put("image/png")
            case .jpeg: out.put("image/jpeg")
            case .zip: out.put("application/zip")
            }
            if b.inline {
                out.put("; name=\""); out.put(b.filename); out.put("\""); out.putCRLF()
                out.put("Content-Disposition: inline; filename=\""); out.put(b.filename); out.put("\""); out.putCRLF()
                out.put("Content-ID: <"); out.put(b.cid ?? []); out.put(">"); out.putCRLF()
            } else if isASCII(b.filename) {
                out.put("; name=\""); out.put(b.filename); out.put("\""); out.putCRLF()
                out.put("Content-Disposition: attachment; filename=\""); out.put(b.filename); out.put("\";")
                out.putCRLF()
                out.put("\tsize="); out.putDecimal(b.size); out.putCRLF()
            } else {
                // Encoded name (RFC 2047) and RFC 2231 filename*, as Outlook/Thunderbird do.
                out.put(";"); out.putCRLF(); out.put("\tname=\"")
                out.putEncodedWords(b.filename, charset: Array("UTF-8".utf8), style: .base64, utf8: true)
                out.put("\""); out.putCRLF()
                out.put("Content-Disposition: attachment;"); out.putCRLF()
                out.put("\tfilename*=UTF-8''")
                for c in b.filename {
                    if (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                        || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") {
                        out.append(c)
                    } else {
                        out.append(UInt8(ascii: "%"))
                        out.append(hexDigitsUpper[Int(c >> 4)]); out.append(hexDigitsUpper[Int(c & 0xF)])
                    }
                }
                out.putCRLF()
            }
            out.put("Content-Transfer-Encoding: base64"); out.putCRLF()
        }
    }

    private func writeEntityBody(_ entity: Entity, into out: inout [UInt8], features: inout MessageFeatures) {
        switch entity {
        case .text(let t):
            raw.removeAll(keepingCapacity: true)
            if t.html {
                renderHTML(doc, charset: t.charset, longLines: t.cte == .quotedPrintable || t.cte == .base64,
                           inlineImageCID: t.cid, into: &raw)
            } else {
                renderPlain(doc, into: &raw)
            }
            switch t.cte {
            case .sevenBit, .eightBit:
                out.append(contentsOf: raw)
                if t.cte == .eightBit { features.insert(.eightBit) }
            case .quotedPrintable:
                out.putQuotedPrintable(raw)
                features.insert(.quotedPrintable)
            case .base64:
                out.putBase64(raw)
                features.insert(.base64Text)
            }
        case .multipart(_, let boundary, let parts, _):
            if rng.chance(500) {
                out.put("This is a multi-part message in MIME format."); out.putCRLF()
            }
            out.putCRLF()
            for part in parts {
                out.put("--"); out.put(boundary); out.putCRLF()
                writeEntityHeaders(part, into: &out)
                out.putCRLF()
                writeEntityBody(part, into: &out, features: &features)
            }
            out.put("--"); out.put(boundary); out.put("--"); out.putCRLF()
        case .binary(let b):
            binary.removeAll(keepingCapacity: true)
            switch b.kind {
            case .pdf: binary.put("%PDF-1.5\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj\n<< /Type /Catalog >>\nstream\n")
            case .png:
                binary.append(contentsOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
                binary.put("IHDR")
                binary.append(contentsOf: [0, 0, 2, 128, 0, 0, 1, 224, 8, 6, 0, 0, 0])
            case .jpeg:
                binary.append(contentsOf: [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])
                binary.put("JFIF")
                binary.append(contentsOf: [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
            case .zip:
                binary.append(contentsOf: [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00])
            }
            rng.appendBytes(max(0, b.size - binary.count), to: &binary)
            out.putBase64(binary)
        }
    }

    // MARK: Notifications and junk

    private static let notifierNames: [(String, String)] = [
        ("CI Bot", "ci-noreply@ci.example"), ("Calendar", "calendar-notification@calendar.example"),
        ("Shop", "orders@shop.example"), ("The Weekly Digest", "digest@news.example"),
        ("Issue Tracker", "tracker@issues.example"),
    ]

    private func buildNotification(uid: Int, time: Int) -> GeneratedMessage {
        var features: MessageFeatures = [.notification]
        let kind = rng.below(Self.notifierNames.count)
        let (name, address) = Self.notifierNames[kind]
        let addressBytes = Array(address.utf8)
        let domain = Array(address.split(separator: "@")[1].utf8)
        doc.reset()
        var subject: [UInt8] = []
        let v = english
        let m0 = doc.mark
        switch kind {
        case 0:
            let project = rng.pick(v.notificationProjects)
            let run = rng.range(1000, 99999)
            let failed = rng.chance(400)
            subject.put("["); subject.put(project); subject.put(failed ? "] Run failed: " : "] Run succeeded: ")
            subject.put(rng.chance(700) ? "main" : "release-1.x"); subject.put(" (#"); subject.putDecimal(run)
            subject.put(")")
            doc.bytes.put(failed ? "The workflow run failed for " : "The workflow run succeeded for ")
            doc.bytes.put(project); doc.bytes.put(". Run #"); doc.bytes.putDecimal(run); doc.bytes.put(" took ")
            doc.bytes.putDecimal(rng.range(2, 59)); doc.bytes.put(" minutes.")
        case 1:
            subject.put("Invitation: "); subject.put(rng.pick(v.nouns)); subject.put(" sync @ ")
            subject.put(dayNames[rng.range(1, 5)]); subject.put(" ")
            subject.putDecimal(rng.range(8, 17)); subject.put(":00")
            doc.bytes.put("You have been invited to a meeting about the "); doc.bytes.put(rng.pick(v.nouns))
            doc.bytes.put(". Please respond.")
        case 2:
            subject.put("Your order #"); subject.putDecimal(rng.range(100, 999)); subject.put("-")
            subject.putDecimal(rng.range(1_000_000, 9_999_999)); subject.put(" has shipped")
            doc.bytes.put("Good news! Your order is on its way and should arrive within ")
            doc.bytes.putDecimal(rng.range(2, 7)); doc.bytes.put(" days.")
        case 3:
            subject.put("Weekly digest: "); subject.putDecimal(rng.range(3, 12)); subject.put(" stories you missed")
            doc.close(m0, .text, level: 0)
            appendOwnText(seed: mix64(salt, UInt64(uid), 0xD16), language: .english, charset: .utf8, to: &doc, level: 0)
        default:
            subject.put("[ISSUE-"); subject.putDecimal(rng.range(100, 9999)); subject.put("] ")
            subject.put(rng.pick(v.nouns)); subject.put(" ")
            subject.put(rng.pick(v.verbs3)); subject.put(" "); subject.put(rng.pick(v.nouns))
            englishSentence(&rng, into: &doc.bytes, allowOpener: false)
        }
        doc.close(m0, .text, level: 0)
        let m1 = doc.mark
        doc.bytes.put("You are receiving this because you are subscribed to these notifications.")
        doc.close(m1, .text, level: 0)

        let html = rng.chance(350)
        let client: MailClient = .gmail
        let entity: Entity
        let charset = Charset.utf8
        if html {
            entity = .text(TextPartPlan(html: true, charset: charset, cte: rng.chance(500) ? .quotedPrintable : .base64,
                                        cid: nil))
            features.insert(.htmlOnly)
        } else {
            entity = .multipart(subtype: "alternative", boundary: boundary(client), parts: [
                .text(TextPartPlan(html: false, charset: charset, cte: .sevenBit, cid: nil)),
                .text(TextPartPlan(html: true, charset: charset, cte: .quotedPrintable, cid: nil)),
            ], related: false)
            features.insert(.alternative)
        }

        header.removeAll(keepingCapacity: true)
        header.put("Return-Path: <bounces+"); header.putHex(rng.next(), digits: 10); header.put("@")
        header.put(domain); header.put(">"); header.putCRLF()
        header.put("Delivered-To: "); header.put(directory.people[me].address); header.putCRLF()
        putReceived(senderDomain: domain, via: nil, time: time, into: &header)
        putDKIM(domain: domain, time: time, into: &header)
        header.put("Date: "); header.putRFC5322Date(epoch: time, offsetMinutes: 0, style: .standard); header.putCRLF()
        header.put("From: "); header.put(Array(name.utf8)); header.put(" <"); header.put(addressBytes); header.put(">")
        header.putCRLF()
        header.put("To: "); header.put(directory.people[me].address); header.putCRLF()
        header.put("Subject: ")
        if rng.chance(150) {
            features.insert(.encodedWords)
            var s: [UInt8] = []
            s.put("\u{1F4E6} "); s.put(subject)
            header.putEncodedWords(s, charset: Array("UTF-8".utf8), style: .base64, utf8: true)
        } else {
            header.put(subject)
        }
        header.putCRLF()
        header.put("Message-ID: "); header.append(UInt8(ascii: "<")); header.putHex(mix64(salt, UInt64(uid)), digits: 16)
        header.put("."); header.putDecimal(uid); header.put("@"); header.put(domain); header.put(">"); header.putCRLF()
        header.put("MIME-Version: 1.0"); header.putCRLF()
        writeEntityHeaders(entity, into: &header)
        header.put("Auto-Submitted: auto-generated"); header.putCRLF()
        header.put("Precedence: bulk"); header.putCRLF()
        header.put("List-Unsubscribe: <https://"); header.put(domain); header.put("/unsubscribe/")
        header.putHex(rng.next(), digits: 16); header.put(">"); header.putCRLF()

        body.removeAll(keepingCapacity: true)
        writeEntityBody(entity, into: &body, features: &features)

        var folder = Folder.inbox
        let r = rng.below(100)
        if r < 10 { folder = .archive } else if r < 25 { folder = .trash }
        let plan = Plan(uid: uid, time: time, sender: -1, folder: folder, features: features)
        return finish(plan: plan, fromMe: false, envelope: Array("bounces@".utf8) + domain, threadID: threadCount - 1)
    }

    private func buildJunk(uid: Int, time: Int) -> GeneratedMessage {
        var features: MessageFeatures = [.junk]
        let v = english
        doc.reset()
        let m = doc.mark
        for i in 0 ..< rng.range(2, 5) {
            if i > 0 { doc.bytes.put(" ") }
            doc.bytes.put(rng.pick(v.spamLines))
        }
        doc.close(m, .text, level: 0)
        var domain: [UInt8] = []
        putAlnum(rng.range(6, 12), uppercase: false, into: &domain)
        for i in domain.indices where domain[i] < UInt8(ascii: "a") && domain[i] >= UInt8(ascii: "A") { domain[i] += 32 }
        domain.put(".example")
        let entity: Entity
        if rng.chance(700) {
            entity = .text(TextPartPlan(html: true, charset: .utf8, cte: rng.chance(500) ? .base64 : .quotedPrintable,
                                        cid: nil))
            features.insert(.htmlOnly)
        } else {
            entity = .multipart(subtype: "alternative", boundary: boundary(.roundcube), parts: [
                .text(TextPartPlan(html: false, charset: .utf8, cte: .quotedPrintable, cid: nil)),
                .text(TextPartPlan(html: true, charset: .utf8, cte: .base64, cid: nil)),
            ], related: false)
            features.insert(.alternative)
        }
        header.removeAll(keepingCapacity: true)
        var envelope: [UInt8] = []
        putAlnum(8, uppercase: false, into: &envelope); envelope.put("@"); envelope.put(domain)
        header.put("Return-Path: <"); header.put(envelope); header.put(">"); header.putCRLF()
        header.put("Delivered-To: "); header.put(directory.people[me].address); header.putCRLF()
        putReceived(senderDomain: domain, via: nil, time: time, into: &header)
        header.put("X-Spam-Flag: YES"); header.putCRLF()
        header.put("X-Spam-Score: "); header.putDecimal(rng.range(6, 30)); header.put(".")
        header.putDecimal(rng.below(10)); header.putCRLF()
        header.put("Date: "); header.putRFC5322Date(epoch: time - rng.below(7200), offsetMinutes: [-300, 0, 480, 180][rng.below(4)],
                                                  style: .standard)
        header.putCRLF()
        header.put("From: ")
        if rng.chance(500) {
            var name: [UInt8] = []
            name.put("\u{2705} Customer Service")
            header.putEncodedWords(name, charset: Array("UTF-8".utf8), style: .base64, utf8: true)
            features.insert(.encodedWords)
        } else {
            header.put("\"Customer Service\"")
        }
        header.put(" <"); header.put(envelope); header.put(">"); header.putCRLF()
        header.put("To: "); header.put(directory.people[me].address); header.putCRLF()
        header.put("Subject: ")
        let subject = rng.pick(v.spamSubjects)
        if rng.chance(400) {
            var s: [UInt8] = []
            s.put("\u{1F525} "); s.put(subject)
            header.putEncodedWords(s, charset: Array("UTF-8".utf8), style: .base64, utf8: true)
            features.insert(.encodedWords)
        } else {
            header.put(subject)
        }
        header.putCRLF()
        header.put("Message-ID: <"); header.putHex(mix64(salt, UInt64(uid)), digits: 16); header.put(".")
        header.putDecimal(uid); header.put("@"); header.put(domain); header.put(">"); header.putCRLF()
        header.put("MIME-Version: 1.0"); header.putCRLF()
        writeEntityHeaders(entity, into: &header)
        body.removeAll(keepingCapacity: true)
        writeEntityBody(entity, into: &body, features: &features)
        let folder: Folder = rng.chance(900) ? .junk : .trash
        let plan = Plan(uid: uid, time: time, sender: -1, folder: folder, features: features)
        return finish(plan: plan, fromMe: false, envelope: envelope, threadID: threadCount - 1)
    }
}
