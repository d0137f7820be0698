import FuzzSupport

/// Fuzzes with libFuzzer when built by Tools/fuzz, replays the given files otherwise.
@main
enum FuzzCompose {
    static func main() {
        FuzzMain.run(check: ComposeFuzz.check)
    }
}
