import Foundation

/// A fresh folder under the system temp folder, removed when the value is deinitialised.
package final class TemporaryDirectory {
    /// The folder's path.
    package let path: String

    /// Creates a new empty folder.
    package init(_ prefix: String = "mailstore-test") {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/\(prefix)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the folder.
    package func file(_ name: String) -> String { path + "/" + name }
}
