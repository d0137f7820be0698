/// Why a categorization request was refused.
public enum CategorizeError: Error, CustomStringConvertible {
    /// `uncategorized` is not a category a thread can be put in.
    case notACategory
    /// `--rerun` needs the categorizer, which `MAILSTORE_CATEGORIZER=off` turned off.
    case categorizerOff

    public var description: String {
        switch self {
        case .notACategory: "choose primary, social, promotions, updates or forums"
        case .categorizerOff: "the categorizer is off (MAILSTORE_CATEGORIZER=off): unset it to categorize"
        }
    }
}
