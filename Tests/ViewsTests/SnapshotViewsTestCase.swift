import Foundation

/// A `ViewsTestCase` whose folds take view snapshots often (every 100 events, within 64 MiB), for the tests of
/// time travel and of folds from a snapshot.
class SnapshotViewsTestCase: ViewsTestCase {
    override func setUpWithError() throws {
        setenv("MAILSTORE_SNAPSHOT_INTERVAL", "100", 1)
        setenv("MAILSTORE_SNAPSHOT_BUDGET_MB", "64", 1)
        try super.setUpWithError()
    }

    override func tearDown() {
        unsetenv("MAILSTORE_SNAPSHOT_INTERVAL")
        unsetenv("MAILSTORE_SNAPSHOT_BUDGET_MB")
        super.tearDown()
    }
}
