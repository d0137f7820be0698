import ArgumentParser
import Foundation
import MailStore

/// `mailstore account login NAME`: signs an OAuth account in again.
struct AccountLoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign an OAuth account in again (after its sign-in was revoked or expired).",
        discussion: """
        Opens the provider's sign-in page (the URL is printed; a browser is opened when there is one) and waits \
        for it on a loopback address (127.0.0.1). --device shows a code to enter on another device instead. \
        The new refresh token replaces the old one in STORE/secrets/NAME.oauth (mode 0600) of the store in use; \
        nothing secret is printed or logged. Exit 6 when the sign-in is refused (by you, the server or an \
        administrator) or the account does not use OAuth, 5 when the OAuth server cannot be reached or the \
        sign-in ran out of time, 4 when there is no such account.
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The account's name.") var name: String
    @Flag(help: "Sign in with a code entered on another device (RFC 8628).") var device = false
    @Flag(help: "Print the sign-in URL only, never open a browser.") var noBrowser = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait for the sign-in (default 300).", valueName: "seconds")) var signInTimeout: Double?

    func validate() throws {
        if let t = signInTimeout, !(t > 0 && t <= 3600) { throw ValidationError("--sign-in-timeout is 1-3600 seconds") }
    }

    func run() throws {
        try CLIExit.run {
            let store = try storeOptions.open()
            var options = try OAuthOptions.parse([])
            options.device = device
            options.noBrowser = noBrowser
            options.signInTimeout = signInTimeout
            let email = try store.account(named: name)?.email
            do {
                try store.loginOAuthAccount(named: name, signIn: options.signIn(loginHint: email))
            } catch let error as OAuthError {
                // Refused (needs the user) is 6, unreachable or too late is 5: see OAuthError.needsUser.
                Terminal.error("\(error)")
                throw ExitCode(error.needsUser ? CLIExit.configError : CLIExit.serverError)
            }
            print("Signed in \(name).")
        }
    }
}
