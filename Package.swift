// swift-tools-version:6.0
import PackageDescription

/// mailstore: an event-sourced mail store and sync engine.
///
/// Layout tells the architecture:
/// - pure cores: `DomainNames` (Punycode and IDNA's display rules), `EventModel` (envelope, payloads, binary codec),
///   `MailParser` (RFC 5322 / MIME),
///   `IMAPProtocol` (IMAP grammar), `SyncCore` (providers, folder mapping), `Projections` (the projector folds),
///   `MessageComposer` (RFC 5322 / MIME messages to send, replies and forwards), `Categorizer` (the rule-based,
///   versioned mail categorizer), `SearchQuery`
///   (the search language);
/// - I/O: `LMDB` (the Swift layer over liblmdb), `EventLog` (the append-only log and blob store),
///   `SecureTransport` (TCP and verified TLS with STARTTLS upgrades, deadlines, and what both protocol clients
///   share: endpoints, security modes, credentials, auth mechanisms, SASL, transport errors),
///   `IMAPClient` (blocking IMAP over TLS, on `IMAPProtocol`), `SMTPClient` (blocking SMTP submission),
///   `SearchIndex` (the full-text search view in SQLite FTS5; `CSQLiteFolderVFS`, in C, keeps SQLite's temporary
///   files in the index's folder);
/// - native codecs: `NativeCodecs` (SHA-256 through OpenSSL, zstd);
/// - the embeddable library `MailStore`, the CLI library `MailStoreCLI` and a thin `mailstore` executable;
/// - tools under `Tools/`.
let package = Package(
    name: "mailstore",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MailStore", targets: ["MailStore"]),
        .executable(name: "mailstore", targets: ["mailstore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries (C shims).
        .systemLibrary(name: "CLMDB", path: "Sources/CLMDB", pkgConfig: "lmdb",
                       providers: [.apt(["liblmdb-dev"])]),
        .systemLibrary(name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd",
                       providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // libxml2 (libxml2-dev): autoconfig documents, read as a tree (Foundation's XMLParser trapped on hostile ones).
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        // glibc's allocator settings (`mallopt`), which the Glibc module leaves out: set by the CLI.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(name: "CProcess", path: "Sources/CProcess"),

        // Pure cores.
        .target(name: "DomainNames"),
        .target(name: "EventModel", dependencies: ["DomainNames"]),
        .target(name: "MailParser"),
        .target(name: "IMAPProtocol"),
        .target(name: "SyncCore", dependencies: ["EventModel", "IMAPProtocol", "CLibXML2"]),
        .target(name: "Projections", dependencies: ["DomainNames", "EventModel", "MailParser"], path: "Projections"),
        .target(name: "MessageComposer", dependencies: ["MailParser"]),
        .target(name: "Categorizer", dependencies: ["EventModel", "MailParser"]),
        .target(name: "SearchQuery"),

        // Native codecs and I/O.
        .target(name: "NativeCodecs", dependencies: ["CZstd", "COpenSSL"]),
        .target(name: "LMDB", dependencies: ["CLMDB"]),
        .target(name: "EventLog", dependencies: ["EventModel", "LMDB", "NativeCodecs"]),
        .target(name: "SecureTransport", dependencies: ["COpenSSL"]),
        .target(name: "IMAPClient", dependencies: ["IMAPProtocol", "SecureTransport"]),
        .target(name: "SMTPClient", dependencies: ["SecureTransport"]),

        .target(name: "Views", dependencies: ["EventLog", "EventModel", "LMDB", "NativeCodecs", "Projections"]),
        // SQLite's temporary files made in the index's folder (a VFS over the default one).
        .target(name: "CSQLiteFolderVFS", dependencies: ["CSQLite"], path: "Sources/CSQLiteFolderVFS"),
        .target(name: "SearchIndex", dependencies: ["CSQLite", "CSQLiteFolderVFS", "SearchQuery", "DomainNames", "EventLog", "EventModel", "LMDB", "MailParser", "NativeCodecs", "Projections"]),

        // Library and CLI.
        .target(name: "MailStore", dependencies: ["DomainNames", "EventLog", "EventModel", "MailParser", "NativeCodecs", "Views", "Projections", "LMDB",
                                                  "IMAPClient", "IMAPProtocol", "SyncCore", "SMTPClient", "MessageComposer",
                                                  "SecureTransport", "Categorizer", "SearchIndex", "SearchQuery", "CProcess"]),
        // The CLI imports `MailStore` (and ArgumentParser) only; within the package it may use `package` members.
        .target(name: "MailStoreCLI", dependencies: [
            "MailStore",
            "EventModel",
            "SearchQuery",
            "CMalloc",
            "CProcess",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "mailstore", dependencies: ["MailStoreCLI"]),

        // Tools.
        .executableTarget(name: "bench", dependencies: ["EventLog", "EventModel", "LMDB", "NativeCodecs", "CLMDB", "MailStore",
                                                      "Views", "Projections", "CSQLite", "IMAPClient", "IMAPProtocol", "Categorizer", "MailParser",
                                                      "SearchIndex", "SearchQuery", "SecureTransport"],
                          path: "Tools/bench"),
        .target(name: "CorpusGenerator", path: "Tools/CorpusGenerator"),
        .executableTarget(name: "gen-corpus", dependencies: [
            "CorpusGenerator",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Tools/gen-corpus"),
        // Runs one of bench's steps from a small process, so the step's peak RSS is its own (Tools/peak-rss/main.c).
        .executableTarget(name: "peak-rss", path: "Tools/peak-rss"),
        // What memory costs this machine when bench starts (first touch, recently freed, page cache writes).
        .executableTarget(name: "machine-probe", path: "Tools/machine-probe"),
        .executableTarget(name: "mailstore-torture", dependencies: ["EventLog", "EventModel", "LMDB"],
                          path: "Tools/torture-helper"),

        // Fuzz targets (Tools/fuzz builds them with libFuzzer; a plain build replays saved inputs).
        .systemLibrary(name: "CLibFuzzer", path: "Tools/fuzzing/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Tools/fuzzing/FuzzSupport"),
        .executableTarget(name: "fuzz-imap", dependencies: ["FuzzSupport", "IMAPProtocol"], path: "Tools/fuzzing/fuzz-imap"),
        .executableTarget(name: "fuzz-mime", dependencies: ["FuzzSupport", "MailParser", "Categorizer"], path: "Tools/fuzzing/fuzz-mime"),
        .executableTarget(name: "fuzz-mbox", dependencies: ["FuzzSupport", "MailParser"], path: "Tools/fuzzing/fuzz-mbox"),
        .executableTarget(name: "fuzz-record", dependencies: ["FuzzSupport", "EventModel", "EventLog", "NativeCodecs"], path: "Tools/fuzzing/fuzz-record"),
        .executableTarget(name: "fuzz-smtp-reply", dependencies: ["FuzzSupport", "SMTPClient"], path: "Tools/fuzzing/fuzz-smtp-reply"),
        .executableTarget(name: "fuzz-discovery", dependencies: ["FuzzSupport", "SyncCore"], path: "Tools/fuzzing/fuzz-discovery"),
        .executableTarget(name: "fuzz-views", dependencies: ["FuzzSupport", "EventModel", "Projections"], path: "Tools/fuzzing/fuzz-views"),
        .executableTarget(name: "fuzz-compose", dependencies: ["FuzzSupport", "MessageComposer", "MailParser"], path: "Tools/fuzzing/fuzz-compose"),
        .executableTarget(name: "fuzz-blob", dependencies: ["FuzzSupport", "EventLog", "EventModel", "NativeCodecs"], path: "Tools/fuzzing/fuzz-blob"),

        // Tests.
        .target(name: "TestSupport", dependencies: ["Projections", "EventModel"], path: "Tests/TestSupport"),
        .testTarget(name: "DomainNamesTests", dependencies: ["DomainNames", "TestSupport"]),
        .testTarget(name: "EventModelTests", dependencies: ["EventModel", "TestSupport"]),
        .testTarget(name: "MailParserTests", dependencies: ["MailParser", "TestSupport"]),
        .testTarget(name: "CategorizerTests", dependencies: ["Categorizer", "MailParser", "EventModel"],
                    exclude: ["Labelled"]),
        .testTarget(name: "SearchQueryTests", dependencies: ["SearchQuery"]),
        .testTarget(name: "SearchIndexTests", dependencies: ["SearchIndex", "SearchQuery", "MailStore", "Views", "Projections", "EventLog", "EventModel",
                                                         "TestSupport", "CorpusGenerator"]),
        .testTarget(name: "IMAPProtocolTests", dependencies: ["IMAPProtocol"]),
        .testTarget(name: "IMAPClientTests", dependencies: ["IMAPClient", "IMAPProtocol", "SecureTransport", "TestSupport"]),
        .testTarget(name: "SMTPClientTests", dependencies: ["SMTPClient", "SecureTransport", "MessageComposer", "MailParser", "TestSupport"]),
        .testTarget(name: "MessageComposerTests", dependencies: ["MessageComposer", "MailParser", "TestSupport", "CorpusGenerator"]),
        .testTarget(name: "SyncCoreTests", dependencies: ["SyncCore", "IMAPProtocol", "EventModel"]),
        .testTarget(name: "ProjectionsTests", dependencies: ["Projections", "EventModel", "CorpusGenerator"]),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB", "CLMDB", "TestSupport", "mailstore-torture"]),
        .testTarget(name: "EventLogTests", dependencies: ["EventLog", "EventModel", "NativeCodecs", "LMDB", "TestSupport", "mailstore-torture"]),
        .testTarget(name: "CorpusGeneratorTests", dependencies: ["CorpusGenerator"]),
        .testTarget(name: "ImportTests", dependencies: ["MailStore", "EventLog", "EventModel", "TestSupport", "CorpusGenerator"]),
        .testTarget(name: "ViewsTests", dependencies: ["MailStore", "Views", "Projections", "EventLog", "EventModel", "LMDB", "NativeCodecs", "TestSupport", "CorpusGenerator"]),
        .testTarget(name: "SyncTests", dependencies: ["MailStore", "SyncCore", "IMAPClient", "IMAPProtocol", "Views", "Projections", "EventLog",
                                                  "EventModel", "TestSupport", "mailstore", "MailParser", "CorpusGenerator"]),
        .testTarget(name: "CLITests", dependencies: ["MailStoreCLI", "CMalloc", "mailstore", "EventLog", "MailStore", "Views", "TestSupport", "CorpusGenerator"]),
    ],
    swiftLanguageModes: [.v6]
)
