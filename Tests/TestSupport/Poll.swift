import Foundation

/// Waiting for something another thread or process does, with a bound.
package enum Poll {
    /// Checks `condition` every 10 ms until it holds or `seconds` passed; true when it held.
    package static func until(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
