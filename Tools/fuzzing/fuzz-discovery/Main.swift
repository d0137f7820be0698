import FuzzSupport

/// Fuzzes with libFuzzer when built by Tools/fuzz, replays the given files otherwise.
@main
enum FuzzDiscovery {
    static func main() {
        FuzzMain.run(check: DiscoveryFuzz.check)
    }
}
