import IMAPProtocol
import SecureTransport

/// A blocking connection to an IMAP server: TLS, authentication and the commands a mail
/// synchroniser needs.
///
/// Every call sends one command (or a few, for fallbacks) and returns when the server has
/// completed it; each single read or write waits at most ``ServerEndpoint/timeoutSeconds``, each
/// whole command at most ``ServerEndpoint/commandTimeout`` (plus a second per
/// ``CommandLimits/deadlineBytesPerSecond`` received), and what a command brings back is bounded
/// by ``limits``.
/// Use a connection from one thread at a time. After a protocol error, a timeout or a closed
/// connection every later call throws that same error: make a new connection.
///
/// ```swift
/// let imap = try IMAPConnection.connect(ServerEndpoint(host: "imap.example.com", port: 993, security: .tls))
/// try imap.authenticate(username: "alice@example.com", credential: .password(secret), mechanism: .plain)
/// let inbox = try imap.select(.inbox)
/// try imap.uidFetch(.all, [.uid, .flags, .body(.entire)]) { message in store(message) }
/// imap.logout()
/// ```
package final class IMAPConnection {
    /// Where the connection goes.
    let endpoint: ServerEndpoint
    /// The TCP connection, encrypted or not.
    let transport: SecureConnection
    /// Reads the server's responses from the bytes received.
    var parser = IMAPResponseParser()
    /// The largest message (literal) the connection takes: a message the server says is larger is not to be fetched.
    package var maxMessageBytes: Int { parser.limits.maxLiteralSize }
    /// Receives protocol lines (credentials redacted), when tracing.
    let trace: ((String) -> Void)?
    /// Splits received bytes into lines for `trace`.
    var incomingTrace = LineTracer(prefix: "S: ")
    /// The number of the next command tag.
    var nextTagNumber = 1
    /// The error that made the connection unusable; every later call throws it.
    var failure = FailureLatch<IMAPClientError>()
    /// The text of the server's last `* BYE`, to explain a closed connection.
    var byeText: String?
    /// Extensions turned on with ENABLE (uppercased).
    var enabledExtensions: Set<String> = []
    /// The command in progress, for errors.
    var commandName = "connection setup"
    /// Untagged responses received during the command in progress.
    var commandResponses = 0
    /// Bytes received during the command in progress.
    var commandBytes = 0
    /// UIDNEXT of the selected mailbox as SELECT reported it, while no message can have arrived
    /// since (no larger EXISTS, no APPEND, COPY or MOVE): a search result claiming more UIDs than ``selectedExists``
    /// is clamped below it.
    var selectedUIDNext: UInt32?
    /// The message count of the selected mailbox as last reported.
    var selectedExists: UInt32 = 0
    /// The mailbox selected (or examined) last, nil before and after a SELECT or EXAMINE that failed.
    package internal(set) var selectedMailbox: MailboxName?

    /// What one command may bring back; a command that gets more fails with
    /// ``IMAPClientError/responseLimitExceeded(command:limit:)``.
    package var limits = CommandLimits()

    /// The personal namespace's prefix once asked (``personalNamespacePrefix()``): `.some(nil)` for none.
    var askedNamespacePrefix: String??

    /// The capabilities the server advertised last, uppercased.
    package internal(set) var capabilities: Set<String> = []

    /// Receives the untagged responses no command asked for: EXISTS, EXPUNGE, VANISHED, FETCH
    /// of other messages, `* OK [ALERT]`, ...
    package var onUnsolicited: ((UntaggedResponse) -> Void)?

    init(endpoint: ServerEndpoint, transport: SecureConnection, trace: ((String) -> Void)?) {
        self.endpoint = endpoint
        self.transport = transport
        self.trace = trace
        transport.setDeadline(secondsFromNow: endpoint.commandTimeout)
    }

    deinit { transport.close() }

    /// Whether the server advertises `capability` (ASCII case-insensitive), e.g. `"CONDSTORE"`.
    package func has(_ capability: String) -> Bool {
        capabilities.contains(capability.uppercased())
    }

    /// Whether the connection is protected by TLS (implicit or after STARTTLS).
    package var isEncrypted: Bool { transport.isEncrypted }

    /// Whether the connection can still carry commands: false once an error, a timeout or LOGOUT ended it.
    package var isUsable: Bool { failure.error == nil }

    /// The error that ended the connection (the first one), nil while it is usable.
    package var endedBy: IMAPClientError? { failure.error }

    /// Whether `name` (e.g. `"QRESYNC"`) was turned on with ENABLE on this connection.
    package func isEnabled(_ name: String) -> Bool {
        enabledExtensions.contains(name.uppercased())
    }
}
