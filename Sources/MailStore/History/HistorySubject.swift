/// What `history` is asked about.
public enum HistorySubject: Sendable, Equatable {
    case thread(String)
    case email(String)
    case action(String)
}
