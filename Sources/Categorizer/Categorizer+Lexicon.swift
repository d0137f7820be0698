/// The word and domain lists the rules use. Changing any of them changes results: bump `Categorizer.version`.
extension Categorizer {
    /// Social networks and community sites (a domain matches itself and its subdomains).
    static let socialDomains: Set<Substring> = [
        "facebook.com", "facebookmail.com", "instagram.com", "linkedin.com", "twitter.com", "x.com", "pinterest.com",
        "tiktok.com", "snapchat.com", "reddit.com", "redditmail.com", "tumblr.com", "quora.com", "meetup.com",
        "nextdoor.com", "discord.com", "discordapp.com", "strava.com", "goodreads.com", "flickr.com", "vk.com",
        "xing.com", "bsky.app", "threads.net", "mastodon.social", "youtube.com", "twitch.tv", "myspace.com",
        "ok.ru", "weibo.com", "couchsurfing.com", "untappd.com", "letterboxd.com", "duolingo.com",
    ]

    /// Hosts of mailing-list servers.
    static let listDomains: Set<Substring> = ["googlegroups.com", "groups.io", "freelists.org", "lists.sourceforge.net", "yahoogroups.com"]

    /// Domains of email service providers (bulk senders), seen in From, Sender or Return-Path.
    static let espDomains: Set<Substring> = [
        "mcsv.net", "mcdlv.net", "rsgsv.net", "mailchimpapp.net", "mandrillapp.com", "sendgrid.net", "amazonses.com",
        "mailgun.org", "mailgun.net", "sparkpostmail.com", "mktomail.com", "hubspotemail.net", "hs-email.net",
        "exacttarget.com", "createsend.com", "cmail19.com", "cmail20.com", "ccsend.com", "constantcontact.com",
        "klaviyomail.com", "sailthru.com", "braze.com", "emarsys.net", "sendinblue.com", "brevo.com", "mailjet.com",
        "postmarkapp.com", "customeriomail.com", "substack.com", "beehiiv.com", "convertkit-mail.com", "mlsend.com",
    ]

    /// Local parts of automated senders (before `@`, also with a `-`/`.`/`+` suffix such as `noreply-billing`).
    static let automatedLocalParts: Set<Substring> = [
        "noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "do_not_reply", "notifications", "notification",
        "notify", "notifier", "alerts", "alert", "mailer-daemon", "postmaster", "bounce", "bounces", "account", "accounts",
        "security", "billing", "receipts", "receipt", "orders", "order", "order-update", "shipping", "shipment", "shipment-tracking",
        "auto-confirm", "updates", "update", "digest", "system", "robot", "bot", "automated", "cron", "root", "admin",
        "reminders", "reminder", "calendar", "invoice", "invoices", "statements", "payments", "tickets", "support-noreply",
        "tracking", "appointments", "appointment", "bookings", "booking", "documents", "confirmation", "confirmations",
    ]

    /// Local parts of marketing senders.
    static let marketingLocalParts: Set<Substring> = [
        "newsletter", "newsletters", "news", "marketing", "offers", "offer", "deals", "deal", "promo", "promos",
        "promotions", "sales", "sale", "shop", "store", "hello", "hi", "hey", "info", "email", "mail", "specials",
        "editor", "editors", "campaign", "campaigns", "members", "rewards", "club", "vip", "events", "webinars",
    ]

    /// Subject words of transactional mail: receipts, shipping, security and account notices (lowercased).
    static let transactionalWords: [String] = [
        "receipt", "invoice", "your order", "order confirm", "order #", "order no", "has shipped", "shipped",
        "shipment", "out for delivery", "delivered", "delivery", "tracking", "password", "sign-in", "sign in",
        "signin", "login", "log in", "security alert", "security notice", "verification", "verify", "confirm your",
        "confirmation", "your account", "account update", "statement", "payment", "paid", "refund", "renewal",
        "subscription", "reservation", "booking", "itinerary", "boarding pass", "e-ticket", "ticket", "reminder",
        "appointment", "two-factor", "2fa", "one-time", "code", "expires", "expiring", "failed", "alert", "report",
        "build", "deploy", "pull request", "merge request", "backup", "cron", "quota", "bill",
        "bestellung", "versand", "rechnung", "commande", "facture", "pedido", "factura", "ordine", "fattura",
    ]

    /// Subject words of promotions (lowercased).
    static let promotionalWords: [String] = [
        "% off", "sale", "deal", "discount", "coupon", "promo code", "free shipping", "limited time", "last chance",
        "exclusive", "save ", "savings", "black friday", "cyber monday", "new arrivals", "just dropped", "don't miss",
        "dont miss", "shop ", "offer", "special", "gift", "newsletter", "webinar", "% de", "bestseller", "ends tonight",
        "ends soon", "only today", "free trial", "upgrade now", "early access", "flash", "clearance", "members only",
    ]

    /// The transactional words, for finding in subjects.
    static let transactional = WordSet(transactionalWords)
    /// The promotional words, for finding in subjects.
    static let promotional = WordSet(promotionalWords)
}
