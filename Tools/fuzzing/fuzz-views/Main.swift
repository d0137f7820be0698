import FuzzSupport

/// Fuzzes with libFuzzer when built by Tools/fuzz, replays the given files otherwise.
@main
enum FuzzViews {
    static func main() {
        FuzzMain.run(check: ViewValuesFuzz.check)
    }
}
