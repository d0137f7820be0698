// Word lists and phrase pools used to build plausible text. Sentences are
// assembled from templates (opener, subject, verb, object, tail), so the text
// reads like real (if dull) work mail rather than lorem ipsum.

@inline(__always)
private func bytesList(_ items: [String]) -> [[UInt8]] { items.map { Array($0.utf8) } }

struct EnglishVocabulary: Sendable {
    let nouns: [[UInt8]]
    let adjectives: [[UInt8]]
    let verbs3: [[UInt8]]     // third person singular ("breaks")
    let verbsBase: [[UInt8]]  // base form ("break")
    let tails: [[UInt8]]
    let openers: [[UInt8]]
    let people: [[UInt8]]     // pronoun subjects taking the base verb form
    let units: [[UInt8]]
    let subjectTemplates: Int
    let greetings: [[UInt8]]
    let closings: [[UInt8]]
    let roles: [[UInt8]]
    let fileStems: [[UInt8]]
    let spamSubjects: [[UInt8]]
    let spamLines: [[UInt8]]
    let notificationProjects: [[UInt8]]

    init() {
        nouns = bytesList([
            "build", "release", "server", "database", "index", "cache", "migration", "schema", "query",
            "report", "invoice", "budget", "deadline", "meeting", "agenda", "proposal", "contract", "draft",
            "review", "patch", "branch", "commit", "test suite", "benchmark", "deployment", "pipeline",
            "dashboard", "roadmap", "milestone", "ticket", "issue", "bug", "regression", "crash", "warning",
            "log file", "config", "certificate", "password", "account", "mailbox", "folder", "thread",
            "message", "attachment", "calendar", "invitation", "workshop", "conference", "talk", "slide deck",
            "spreadsheet", "document", "wiki page", "design", "mockup", "prototype", "feature flag",
            "API", "endpoint", "client", "library", "package", "dependency", "compiler", "toolchain",
            "linker", "runtime", "allocator", "parser", "encoder", "decoder", "protocol", "handshake",
            "timeout", "retry logic", "backup", "snapshot", "restore", "replica", "cluster", "node",
            "load balancer", "firewall", "VPN", "laptop", "monitor", "printer", "office", "kitchen",
            "team", "customer", "vendor", "partner", "intern", "manager", "contractor", "board",
            "quarter", "forecast", "estimate", "headcount", "offsite", "onboarding", "handbook", "policy",
            "survey", "feedback", "interview", "candidate", "offer", "newsletter", "announcement",
            "changelog", "license", "trademark", "audit", "incident", "postmortem", "outage", "alert",
            "on-call rotation", "runbook", "checklist", "template", "spec", "requirement", "use case",
            "sync engine", "search index", "thread view", "unread count", "notification", "badge",
            "inbox", "archive", "signature", "filter", "rule", "quota", "storage", "bandwidth", "latency",
            "throughput", "memory usage", "CPU time", "disk space", "error rate", "user", "session",
            "token", "permission", "role", "group", "shipment", "order", "refund", "payment", "receipt",
        ])
        adjectives = bytesList([
            "new", "old", "current", "previous", "final", "initial", "updated", "broken", "flaky", "slow",
            "fast", "large", "small", "shared", "internal", "external", "public", "private", "weekly",
            "monthly", "quarterly", "annual", "urgent", "minor", "major", "critical", "optional", "stable",
            "experimental", "temporary", "legacy", "upcoming", "pending", "approved", "rejected", "missing",
            "duplicate", "corrupted", "encrypted", "compressed", "nightly", "staging", "production",
            "revised", "detailed", "rough", "short", "long", "complex", "simple", "expensive", "cheap",
            "reliable", "unusual", "surprising", "reasonable", "incremental", "full", "partial",
        ])
        let verbPairs: [(String, String)] = [
            ("breaks", "break"), ("needs", "need"), ("improves", "improve"), ("affects", "affect"),
            ("requires", "require"), ("replaces", "replace"), ("depends on", "depend on"),
            ("slows down", "slow down"), ("speeds up", "speed up"), ("fixes", "fix"), ("updates", "update"),
            ("includes", "include"), ("blocks", "block"), ("changes", "change"), ("simplifies", "simplify"),
            ("duplicates", "duplicate"), ("touches", "touch"), ("reuses", "reuse"), ("removes", "remove"),
            ("adds", "add"), ("moves", "move"), ("renames", "rename"), ("validates", "validate"),
            ("rejects", "reject"), ("accepts", "accept"), ("covers", "cover"), ("misses", "miss"),
            ("loads", "load"), ("stores", "store"), ("indexes", "index"), ("parses", "parse"),
            ("encodes", "encode"), ("exports", "export"), ("imports", "import"), ("tracks", "track"),
            ("reports", "report"), ("schedules", "schedule"), ("cancels", "cancel"), ("confirms", "confirm"),
            ("supports", "support"), ("handles", "handle"), ("ignores", "ignore"), ("overwrites", "overwrite"),
            ("syncs", "sync"), ("merges", "merge"), ("splits", "split"), ("compresses", "compress"),
            ("references", "reference"), ("mentions", "mention"), ("summarizes", "summarize"),
            ("delays", "delay"), ("unblocks", "unblock"), ("triggers", "trigger"), ("restarts", "restart"),
            ("measures", "measure"), ("doubles", "double"), ("halves", "halve"), ("explains", "explain"),
        ]
        verbs3 = verbPairs.map { Array($0.0.utf8) }
        verbsBase = verbPairs.map { Array($0.1.utf8) }
        tails = bytesList([
            "before the release", "on Monday", "by Friday", "after the last merge", "in production",
            "for most users", "since last week", "without any warning", "in the staging environment",
            "during the migration", "at the moment", "for now", "next quarter", "this afternoon",
            "tomorrow morning", "after lunch", "in the next sprint", "as soon as possible", "on every run",
            "on the build machines", "for the new customers", "in the old branch", "on Linux",
            "on the CI runners", "when the cache is cold", "under load", "in the nightly builds",
            "for large mailboxes", "with the default settings", "in most cases", "once in a while",
            "again", "as expected", "more than we thought", "by about ten percent", "before the holidays",
            "until further notice", "in the meeting notes", "according to the logs", "on the wiki",
            "in the shared folder", "from the command line", "in the second half", "right now",
        ])
        openers = bytesList([
            "I think", "As far as I can tell,", "To be honest,", "In my experience,", "From what I saw,",
            "Just to confirm,", "As discussed yesterday,", "Quick update:", "By the way,", "Unfortunately,",
            "Good news:", "Apparently", "Honestly,", "For the record,", "If I remember correctly,",
            "From my side,", "As mentioned before,", "In short,", "Interestingly,", "For context,",
            "Looking at the numbers,", "After some digging,", "FYI,", "Just a heads-up:", "Frankly,",
            "From what I can tell,", "On second thought,", "To summarize,", "Meanwhile,", "Also,",
        ])
        people = bytesList(["we", "I", "they", "you", "both teams", "the vendors", "our customers", "most people"])
        units = bytesList([
            "ms", "seconds", "minutes", "MB", "GB", "percent", "requests per second", "messages", "users",
            "tickets", "hours", "days", "euros", "dollars", "lines of code", "test failures",
        ])
        subjectTemplates = 10
        greetings = bytesList(["Hi", "Hello", "Hey", "Dear", "Hi there", "Morning", "Good afternoon"])
        closings = bytesList([
            "Thanks,", "Best regards,", "Cheers,", "Best,", "Kind regards,", "Thanks a lot,", "Regards,",
            "Talk soon,", "Thanks in advance,", "All the best,",
        ])
        roles = bytesList([
            "Software Engineer", "Senior Software Engineer", "Engineering Manager", "Product Manager",
            "Release Manager", "Site Reliability Engineer", "QA Lead", "Technical Writer", "Designer",
            "Sales Director", "Account Executive", "Office Manager", "Data Scientist", "CTO",
            "Support Engineer", "Research Scientist", "PhD Student", "Consultant", "Maintainer",
        ])
        fileStems = bytesList([
            "report", "invoice", "minutes", "slides", "screenshot", "diagram", "contract", "budget",
            "benchmark-results", "photo", "scan", "receipt", "roadmap", "draft", "summary", "logs",
        ])
        spamSubjects = bytesList([
            "You have been selected for an exclusive offer", "Your account needs verification",
            "Limited time: 80% off all items", "Claim your reward now", "Re: your invoice is overdue",
            "Congratulations! You won a gift card", "Final notice: update your payment details",
            "Meet singles in your area", "Cheap meds, no prescription", "Your package could not be delivered",
            "Increase your website traffic today", "Urgent business proposal",
        ])
        spamLines = bytesList([
            "Act now before this offer expires.", "Click the button below to claim your prize.",
            "This is not spam, you are receiving it because you signed up.",
            "Unsubscribe at any time by replying STOP.", "Our records show your account is not verified.",
            "We guarantee results or your money back.", "No credit card required.",
            "Only a few items left in stock!", "Reply with your bank details to receive the transfer.",
        ])
        notificationProjects = bytesList([
            "acme/web", "acme/mobile", "acme/infra", "mailstore/core", "tools/ci-scripts", "docs/handbook",
        ])
    }
}

let english = EnglishVocabulary()

// MARK: - Other languages

/// Languages whose text comes from fixed sentence pools (converted to each
/// legacy charset once at start-up).
enum Language: Int, CaseIterable, Sendable {
    case english
    case german
    case french
    case russian
    case japanese
    case chinese

    /// Charsets this language is written in, with weights.
    var charsets: [(Charset, Int)] {
        switch self {
        case .english: return [(.usASCII, 1)]
        case .german: return [(.iso88591, 40), (.windows1252, 25), (.utf8, 35)]
        case .french: return [(.iso88591, 35), (.windows1252, 25), (.utf8, 40)]
        case .russian: return [(.koi8r, 45), (.windows1251, 15), (.utf8, 40)]
        case .japanese: return [(.shiftJIS, 55), (.utf8, 45)]
        case .chinese: return [(.gb2312, 60), (.utf8, 40)]
        }
    }

    /// Whether sentences are separated by spaces and wrapped (false: one
    /// sentence per line, as CJK mail usually is).
    var wrapsWords: Bool { self != .japanese && self != .chinese }
}

struct LanguageText: Sendable {
    let sentences: [String]
    let subjects: [String]
    let greeting: String
    let closing: String
    /// Attribution: text before the date, between date and name, after name.
    let attribution: (String, String, String)
}

let languageTexts: [Language: LanguageText] = [
    .german: LanguageText(
        sentences: [
            "Vielen Dank für die schnelle Rückmeldung.",
            "Ich habe die Änderungen gestern Abend eingespielt.",
            "Können wir das Thema in der nächsten Besprechung kurz ansprechen?",
            "Die Größe des Indexes ist nach dem Umbau deutlich geschrumpft.",
            "Leider schlägt der Test auf dem Build-Server weiterhin fehl.",
            "Bitte prüft bis Freitag, ob die Übersetzung vollständig ist.",
            "Für die Straßenbahn-Ausschreibung brauchen wir noch drei Unterlagen.",
            "Die Rechnung über 1.250 € ist „dringend“ – bitte bis morgen freigeben.",
            "Ich bin ab Montag für zwei Wochen im Urlaub.",
            "Gibt es schon einen Termin für das Release?",
            "Das Protokoll der letzten Sitzung liegt im gemeinsamen Ordner.",
            "Mir ist aufgefallen, dass die Sortierung der Nachrichten nicht stimmt.",
            "Wir sollten die Migration lieber am Wochenende durchführen.",
            "Schöne Grüße aus dem Büro in München.",
            "Übrigens: der Drucker im zweiten Stock funktioniert wieder.",
            "Die Kollegen aus Köln haben bereits zugestimmt.",
        ],
        subjects: [
            "Besprechung am Donnerstag", "Änderungen am Zeitplan", "Frage zur Übersetzung",
            "Rechnung Nr. 4711 – Prüfung", "Urlaubsvertretung", "Größere Umstellung der Server",
            "Protokoll der Sitzung", "Fehler beim Import",
        ],
        greeting: "Hallo",
        closing: "Viele Grüße",
        attribution: ("Am ", " schrieb ", ":")),
    .french: LanguageText(
        sentences: [
            "Merci pour ton retour rapide.",
            "Je regarde ça dès demain matin.",
            "La réunion de jeudi est déplacée à 14 h.",
            "Peux-tu vérifier le budget avant la fin du mois ?",
            "Le serveur de préproduction a redémarré cette nuit.",
            "J'ai mis à jour le document dans le dossier partagé.",
            "Nous avons reçu la facture, elle s'élève à 980 €.",
            "Le cœur du problème est la synchronisation des dossiers.",
            "Voilà le compte rendu de la réunion d'hier.",
            "Il faudrait prévenir l'équipe du support à l'avance.",
            "Les tests échouent à nouveau sur la branche principale.",
            "Je serai absent la semaine prochaine, à bientôt.",
            "Pourrais-tu relire la présentation avant vendredi ?",
            "Ça me paraît très raisonnable comme délai.",
        ],
        subjects: [
            "Réunion de jeudi", "Compte rendu", "Question sur la facture", "Mise à jour du planning",
            "Problème de synchronisation", "Congés d'été", "Présentation client",
        ],
        greeting: "Bonjour",
        closing: "Bien cordialement,",
        attribution: ("Le ", ", ", " a écrit :")),
    .russian: LanguageText(
        sentences: [
            "Спасибо за быстрый ответ.",
            "Я посмотрю это завтра утром.",
            "Совещание перенесли на четверг, на два часа дня.",
            "Проверь, пожалуйста, бюджет до конца месяца.",
            "Тестовый сервер ночью перезагрузился.",
            "Я обновил документ в общей папке.",
            "Счёт пришёл, сумма около сорока тысяч рублей.",
            "Главная проблема в синхронизации папок.",
            "Вот протокол вчерашней встречи.",
            "Нужно заранее предупредить службу поддержки.",
            "Тесты опять падают на основной ветке.",
            "На следующей неделе меня не будет в офисе.",
            "Можешь посмотреть презентацию до пятницы?",
            "Срок выглядит вполне разумным.",
            "Отчёт за квартал почти готов.",
        ],
        subjects: [
            "Совещание в четверг", "Протокол встречи", "Вопрос по счёту", "Обновление плана",
            "Проблема с синхронизацией", "Отпуск летом", "Отчёт за квартал",
        ],
        greeting: "Привет",
        closing: "С уважением,",
        attribution: ("", ", ", " пишет:")),
    .japanese: LanguageText(
        sentences: [
            "お疲れ様です。",
            "早速のご返信ありがとうございます。",
            "明日の午前中に確認いたします。",
            "会議は木曜日の午後二時に変更になりました。",
            "月末までに予算をご確認いただけますか。",
            "検証用のサーバーが夜間に再起動しました。",
            "共有フォルダの資料を更新しました。",
            "請求書を受け取りました。",
            "問題の原因はフォルダの同期にあるようです。",
            "昨日の打ち合わせの議事録を送ります。",
            "来週は出張のため不在にしております。",
            "金曜日までに資料をご確認ください。",
            "よろしくお願いいたします。",
        ],
        subjects: [
            "木曜日の会議について", "議事録の送付", "請求書の件", "予定変更のお知らせ",
            "同期の不具合について", "出張のご連絡",
        ],
        greeting: "各位",
        closing: "以上、よろしくお願いいたします。",
        attribution: ("", " ", " さんは書きました:")),
    .chinese: LanguageText(
        sentences: [
            "谢谢你的快速回复。",
            "我明天上午再看一下。",
            "周四的会议改到下午两点。",
            "请在月底之前确认一下预算。",
            "测试服务器昨天晚上重启了。",
            "我已经更新了共享文件夹里的文档。",
            "发票已经收到了。",
            "问题主要出在文件夹同步上。",
            "这是昨天会议的记录。",
            "需要提前通知技术支持团队。",
            "主分支上的测试又失败了。",
            "下周我出差，不在办公室。",
            "请在周五之前看一下这个报告。",
            "这个时间安排很合理。",
        ],
        subjects: [
            "关于周四的会议", "会议记录", "发票问题", "计划更新", "同步问题", "出差通知",
        ],
        greeting: "大家好，",
        closing: "谢谢！",
        attribution: ("在 ", "，", " 写道：")),
]

/// Sentence pools converted to each charset at start-up.
struct EncodedLanguagePool: Sendable {
    var sentences: [[UInt8]] = []
    /// Subjects as ready-made RFC 2047 encoded words in this charset (for
    /// UTF-8: B encoding; `subjectsQ` holds the Q variant).
    var subjects: [[UInt8]] = []
    var subjectsQ: [[UInt8]] = []
    var greeting: [UInt8] = []
    var closing: [UInt8] = []
    var attribution: ([UInt8], [UInt8], [UInt8]) = ([], [], [])
    /// Whether this charset carries the language well (nearly every sentence
    /// converts exactly); otherwise messages fall back to UTF-8.
    var usable = false
}

struct LanguagePools: Sendable {
    /// pools[language.rawValue][charset.rawValue]
    let pools: [[EncodedLanguagePool]]

    init() {
        var all: [[EncodedLanguagePool]] = []
        for language in Language.allCases {
            var perCharset: [EncodedLanguagePool] = []
            for charset in Charset.allCases {
                var pool = EncodedLanguagePool()
                if let text = languageTexts[language] {
                    // Index-aligned with the UTF-8 list, so the same choice of
                    // sentences renders in every charset (quotes of a parent
                    // written in another charset stay the same text).
                    pool.sentences = text.sentences.map { convertFromUTF8Lossy($0, to: charset) }
                    var exact = 0
                    for s in text.sentences where convertFromUTF8(s, to: charset) != nil { exact += 1 }
                    pool.usable = exact * 4 >= text.sentences.count * 3
                    for subject in text.subjects {
                        let utf8 = Array(subject.utf8)
                        var b: [UInt8] = []
                        var q: [UInt8] = []
                        switch charset {
                        case .iso88591, .windows1252:
                            let bytes = convertFromUTF8Lossy(subject, to: charset)
                            b.putEncodedWords(bytes, charset: charset.mimeName, style: .q, utf8: false)
                        case .koi8r, .windows1251, .gb2312:
                            let bytes = convertFromUTF8Lossy(subject, to: charset)
                            b.putEncodedWords(bytes, charset: charset.mimeName, style: .base64, utf8: false)
                        case .shiftJIS:
                            // Japanese headers traditionally use ISO-2022-JP.
                            if let jis = iconvFromUTF8(utf8, iconvName: "ISO-2022-JP"), jis.count <= 45 {
                                b.putEncodedWords(jis, charset: Array("ISO-2022-JP".utf8), style: .base64, utf8: false)
                            } else {
                                b.putEncodedWords(utf8, charset: Array("UTF-8".utf8), style: .base64, utf8: true)
                            }
                        case .utf8, .usASCII:
                            b.putEncodedWords(utf8, charset: Array("UTF-8".utf8), style: .base64, utf8: true)
                        }
                        q.putEncodedWords(utf8, charset: Array("UTF-8".utf8), style: .q, utf8: true)
                        pool.subjects.append(b)
                        pool.subjectsQ.append(q)
                    }
                    pool.greeting = convertFromUTF8Lossy(text.greeting, to: charset)
                    pool.closing = convertFromUTF8Lossy(text.closing, to: charset)
                    pool.attribution = (
                        convertFromUTF8Lossy(text.attribution.0, to: charset),
                        convertFromUTF8Lossy(text.attribution.1, to: charset),
                        convertFromUTF8Lossy(text.attribution.2, to: charset)
                    )
                } else {
                    pool.usable = true
                }
                perCharset.append(pool)
            }
            all.append(perCharset)
        }
        pools = all
    }

    @inline(__always)
    func pool(_ language: Language, _ charset: Charset) -> EncodedLanguagePool {
        pools[language.rawValue][charset.rawValue]
    }
}

let languagePools = LanguagePools()

// MARK: - Names

enum Culture: Int, CaseIterable, Sendable {
    case english, latinAccented, cyrillic, chinese, japanese, korean, greek
}

struct NamePart: Sendable {
    let display: String
    let ascii: String
    let female: Bool
}

private func parts(_ items: [(String, String)], female: Bool = false) -> [NamePart] {
    items.map { NamePart(display: $0.0, ascii: $0.1, female: female) }
}

struct NameLists: Sendable {
    let first: [Culture: [NamePart]]
    let last: [Culture: [NamePart]]

    init() {
        let englishFirst = [
            "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William",
            "Elizabeth", "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah",
            "Charles", "Karen", "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Margaret",
            "Steven", "Sandra", "Paul", "Ashley", "Andrew", "Emily", "Joshua", "Donna", "Kevin", "Michelle",
            "Brian", "Carol", "George", "Amanda", "Timothy", "Melissa", "Ryan", "Deborah", "Priya", "Rahul",
            "Aisha", "Omar", "Fatima", "Ahmed", "Kwame", "Chloe", "Liam", "Noah", "Olivia", "Emma", "Ava",
            "Sophia", "Ethan", "Mia", "Lucas", "Grace", "Arjun", "Ananya", "Tariq", "Leila", "Sam", "Alex",
        ].map { ($0, $0) }
        let englishLast = [
            "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
            "Martinez", "Wilson", "Anderson", "Taylor", "Thomas", "Moore", "Jackson", "Martin", "Lee",
            "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "King",
            "Wright", "Scott", "Hill", "Green", "Adams", "Baker", "Nelson", "Carter", "Mitchell", "Roberts",
            "Patel", "Shah", "Khan", "O'Brien", "O'Connor", "MacDonald", "Nguyen", "Singh", "Cohen",
            "Okafor", "Mensah", "Haddad", "Fitzgerald", "Sullivan", "Murphy", "Reyes", "Chen", "Park",
        ].map { ($0, $0) }
        let latinFirst: [(String, String)] = [
            ("José", "jose"), ("François", "francois"), ("Zoë", "zoe"), ("Søren", "soren"), ("Åsa", "asa"),
            ("Björn", "bjorn"), ("Jürgen", "jurgen"), ("Łukasz", "lukasz"), ("Małgorzata", "malgorzata"),
            ("Ángel", "angel"), ("Inês", "ines"), ("João", "joao"), ("Renée", "renee"), ("Hélène", "helene"),
            ("Çağla", "cagla"), ("Jiří", "jiri"), ("Tomáš", "tomas"), ("Mário", "mario"), ("Noémie", "noemie"),
            ("Anaïs", "anais"), ("Jörg", "jorg"), ("Günther", "gunther"), ("Sébastien", "sebastien"),
            ("Thérèse", "therese"), ("Núria", "nuria"), ("Iñaki", "inaki"), ("Ólafur", "olafur"),
            ("Þóra", "thora"), ("Ægir", "aegir"), ("Chloé", "chloe"), ("Jérôme", "jerome"), ("Agnès", "agnes"),
            ("Matthias", "matthias"), ("Katrin", "katrin"), ("Lars", "lars"), ("Ingrid", "ingrid"),
            ("Marco", "marco"), ("Giulia", "giulia"), ("Pablo", "pablo"), ("Lucía", "lucia"),
            ("Dvořák", "dvorak"), ("Ömer", "omer"), ("Ayşe", "ayse"), ("Zoltán", "zoltan"), ("Réka", "reka"),
        ]
        let latinLast: [(String, String)] = [
            ("Müller", "mueller"), ("Schröder", "schroeder"), ("Weiß", "weiss"), ("Groß", "gross"),
            ("García", "garcia"), ("Peña", "pena"), ("Núñez", "nunez"), ("Gonçalves", "goncalves"),
            ("Sørensen", "sorensen"), ("Østergaard", "ostergaard"), ("Åkesson", "akesson"),
            ("Lindström", "lindstrom"), ("Nowak", "nowak"), ("Wiśniewski", "wisniewski"), ("Novák", "novak"),
            ("Horváth", "horvath"), ("Kovács", "kovacs"), ("Lefèvre", "lefevre"), ("Bélanger", "belanger"),
            ("Côté", "cote"), ("Jäger", "jaeger"), ("Bäcker", "baecker"), ("Hernández", "hernandez"),
            ("Rodríguez", "rodriguez"), ("Gómez", "gomez"), ("Yılmaz", "yilmaz"), ("Çelik", "celik"),
            ("Şahin", "sahin"), ("Özdemir", "ozdemir"), ("Schmidt", "schmidt"), ("Fischer", "fischer"),
            ("Rossi", "rossi"), ("Bianchi", "bianchi"), ("Dubois", "dubois"), ("Moreau", "moreau"),
            ("Jönsson", "jonsson"), ("Ström", "strom"), ("Guðmundsdóttir", "gudmundsdottir"),
            ("Kowalczyk", "kowalczyk"), ("Dąbrowski", "dabrowski"), ("Černý", "cerny"), ("Fernández", "fernandez"),
        ]
        let cyrFirstMale: [(String, String)] = [
            ("Иван", "ivan"), ("Алексей", "aleksei"), ("Дмитрий", "dmitry"), ("Сергей", "sergey"),
            ("Андрей", "andrey"), ("Михаил", "mikhail"), ("Николай", "nikolay"), ("Владимир", "vladimir"),
            ("Павел", "pavel"), ("Олег", "oleg"), ("Юрий", "yuri"), ("Артём", "artyom"),
        ]
        let cyrFirstFemale: [(String, String)] = [
            ("Мария", "maria"), ("Ольга", "olga"), ("Наталья", "natalya"), ("Екатерина", "ekaterina"),
            ("Татьяна", "tatyana"), ("Анна", "anna"), ("Елена", "elena"), ("Юлия", "yulia"),
            ("Светлана", "svetlana"), ("Ирина", "irina"), ("Дарья", "darya"),
        ]
        let cyrLast: [(String, String)] = [
            ("Иванов", "ivanov"), ("Смирнов", "smirnov"), ("Кузнецов", "kuznetsov"), ("Попов", "popov"),
            ("Васильев", "vasiliev"), ("Петров", "petrov"), ("Соколов", "sokolov"), ("Михайлов", "mikhailov"),
            ("Новиков", "novikov"), ("Фёдоров", "fedorov"), ("Морозов", "morozov"), ("Волков", "volkov"),
            ("Лебедев", "lebedev"), ("Козлов", "kozlov"), ("Орлов", "orlov"), ("Зайцев", "zaitsev"),
        ]
        let zhLast: [(String, String)] = [
            ("王", "wang"), ("李", "li"), ("张", "zhang"), ("刘", "liu"), ("陈", "chen"), ("杨", "yang"),
            ("赵", "zhao"), ("黄", "huang"), ("周", "zhou"), ("吴", "wu"), ("徐", "xu"), ("孙", "sun"),
            ("马", "ma"), ("朱", "zhu"), ("胡", "hu"), ("郭", "guo"), ("林", "lin"), ("高", "gao"),
        ]
        let zhFirst: [(String, String)] = [
            ("伟", "wei"), ("娜", "na"), ("洋", "yang"), ("静", "jing"), ("帆", "fan"), ("磊", "lei"),
            ("敏", "min"), ("杰", "jie"), ("芳", "fang"), ("明", "ming"), ("丽", "li"), ("超", "chao"),
            ("琳", "lin"), ("军", "jun"), ("强", "qiang"), ("平", "ping"), ("峰", "feng"), ("翔", "xiang"),
            ("晓东", "xiaodong"), ("建国", "jianguo"), ("海燕", "haiyan"), ("志强", "zhiqiang"),
        ]
        let jaLast: [(String, String)] = [
            ("佐藤", "sato"), ("鈴木", "suzuki"), ("高橋", "takahashi"), ("田中", "tanaka"), ("伊藤", "ito"),
            ("渡辺", "watanabe"), ("山本", "yamamoto"), ("中村", "nakamura"), ("小林", "kobayashi"),
            ("加藤", "kato"), ("吉田", "yoshida"), ("山田", "yamada"),
        ]
        let jaFirst: [(String, String)] = [
            ("太郎", "taro"), ("花子", "hanako"), ("健", "ken"), ("翔太", "shota"), ("美咲", "misaki"),
            ("陽子", "yoko"), ("大輔", "daisuke"), ("直樹", "naoki"), ("由美", "yumi"), ("拓也", "takuya"),
            ("さくら", "sakura"), ("恵", "megumi"),
        ]
        let koLast: [(String, String)] = [
            ("김", "kim"), ("이", "lee"), ("박", "park"), ("최", "choi"), ("정", "jung"), ("강", "kang"),
        ]
        let koFirst: [(String, String)] = [
            ("민준", "minjun"), ("서연", "seoyeon"), ("지훈", "jihoon"), ("수빈", "subin"), ("하은", "haeun"),
            ("도윤", "doyun"), ("예린", "yerin"),
        ]
        let grFirst: [(String, String)] = [
            ("Γιώργος", "giorgos"), ("Ελένη", "eleni"), ("Δημήτρης", "dimitris"), ("Κατερίνα", "katerina"),
            ("Νίκος", "nikos"), ("Σοφία", "sofia"),
        ]
        let grLast: [(String, String)] = [
            ("Παπαδόπουλος", "papadopoulos"), ("Νικολάου", "nikolaou"), ("Γεωργίου", "georgiou"),
            ("Οικονόμου", "oikonomou"), ("Αλεξίου", "alexiou"),
        ]
        first = [
            .english: parts(englishFirst),
            .latinAccented: parts(latinFirst),
            .cyrillic: parts(cyrFirstMale) + parts(cyrFirstFemale, female: true),
            .chinese: parts(zhFirst),
            .japanese: parts(jaFirst),
            .korean: parts(koFirst),
            .greek: parts(grFirst),
        ]
        last = [
            .english: parts(englishLast),
            .latinAccented: parts(latinLast),
            .cyrillic: parts(cyrLast),
            .chinese: parts(zhLast),
            .japanese: parts(jaLast),
            .korean: parts(koLast),
            .greek: parts(grLast),
        ]
    }
}

/// Domains by culture (all under reserved .example / example.* names).
let domainsByCulture: [Culture: [String]] = [
    .english: [
        "example.com", "example.org", "example.net", "acme.example", "globex.example", "initech.example",
        "umbrella.example", "hooli.example", "piedpiper.example", "contoso.example", "fabrikam.example",
        "northwind.example", "stark.example", "mail.example.co.uk", "fastmail.example", "proton.example",
        "icloud.example", "outlook.example", "gmail.example", "cs.uni.example.edu",
    ],
    .latinAccented: [
        "mail.example.de", "web.example.de", "gmx.example", "posteo.example", "orange.example.fr",
        "free.example.fr", "libero.example.it", "telefonica.example.es", "uol.example.br",
        "seznam.example.cz", "wp.example.pl", "ziggo.example.nl", "telia.example.se", "online.example.no",
        "uni-heidelberg.example", "ens.example.fr", "gmail.example", "outlook.example",
    ],
    .cyrillic: ["yandex.example", "mail.example.ru", "rambler.example", "gmail.example", "acme.example"],
    .chinese: ["qq.example", "163.example", "sina.example.cn", "gmail.example", "globex.example"],
    .japanese: ["docomo.example.jp", "softbank.example.jp", "nifty.example.jp", "gmail.example"],
    .korean: ["naver.example", "daum.example", "gmail.example"],
    .greek: ["otenet.example.gr", "gmail.example", "outlook.example"],
]

/// Time zones (minutes east of UTC, comment, observes DST) by culture.
let zonesByCulture: [Culture: [(Int, String, Bool)]] = [
    .english: [(-300, "EST", true), (-360, "CST", true), (-480, "PST", true), (0, "GMT", true),
               (0, "UTC", false), (330, "IST", false), (600, "AEST", false), (-420, "MST", false), (60, "WAT", false)],
    .latinAccented: [(60, "CET", true), (60, "CET", true), (0, "WET", true), (-180, "BRT", false),
                     (120, "EET", true), (180, "TRT", false), (0, "UTC", false)],
    .cyrillic: [(180, "MSK", false), (180, "MSK", false), (300, "YEKT", false), (420, "NOVT", false)],
    .chinese: [(480, "CST", false)],
    .japanese: [(540, "JST", false)],
    .korean: [(540, "KST", false)],
    .greek: [(120, "EET", true)],
]
