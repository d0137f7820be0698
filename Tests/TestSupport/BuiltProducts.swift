import Foundation

/// Where SwiftPM put the executables built with the tests.
package enum BuiltProducts {
    /// The folder holding the test bundle and the package's executables.
    package static var directory: String {
        // The XCTest runner is `<products>/mailstorePackageTests.xctest` on Linux.
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<3 {
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("mailstore").path) { return url.path }
            url.deleteLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath + "/.build/debug"
    }

    /// The path of executable `name`.
    package static func executable(_ name: String) -> String { directory + "/" + name }
}
