import XCTest

/// A test case with a fresh folder for each test (`dir`), removed after it. Subclasses name the folder's prefix.
open class FolderTestCase: XCTestCase {
    /// The test's folder.
    package var dir: TemporaryDirectory!

    /// The prefix of the folders' names (under the system temp folder).
    open class var folderPrefix: String { "mailstore-test" }

    override open func setUp() {
        super.setUp()
        dir = TemporaryDirectory(Self.folderPrefix)
    }

    override open func tearDown() {
        dir = nil
        super.tearDown()
    }
}
