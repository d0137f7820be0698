import FuzzSupport

/// Fuzzes with libFuzzer when built by Tools/fuzz, replays the given files otherwise.
@main
enum FuzzMbox {
    static func main() {
        FuzzMain.run(check: MboxFuzz.check)
    }
}
