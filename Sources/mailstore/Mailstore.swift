import MailStoreCLI

/// The `mailstore` executable: a thin entry point over the MailStoreCLI library.
@main
enum Mailstore {
    static func main() {
        MailstoreCommand.main()
    }
}
