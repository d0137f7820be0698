import Foundation
import MailStore
import TestSupport
import XCTest

/// The password command's bounds: a time limit and an output cap, past which its whole process group is
/// killed.
final class PasswordCommandTests: XCTestCase {
    func testAHungCommandIsKilledWithItsProcessGroup() throws {
        let dir = TemporaryDirectory("password-command")
        let pidFile = dir.file("pid")
        // The command starts a background sleeper (same process group) and then hangs itself.
        let command = PasswordCommand(command: "sleep 30 & echo $! > \(pidFile); sleep 30", timeoutSeconds: 1)
        XCTAssertThrowsError(try command.run()) { error in
            XCTAssertTrue("\(error)".contains("did not finish within 1 s and was killed"), "\(error)")
        }
        let pid = try XCTUnwrap(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // The background sleeper was in the group: it is gone (or a zombie awaiting its reaper) once killed.
        var gone = false
        for _ in 0..<200 where !gone {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            gone = stat.isEmpty || stat.contains(") Z ")
            if !gone { usleep(10_000) }
        }
        XCTAssertTrue(gone, "the process group's background sleeper \(pid) survived")
    }

    func testEndlessOutputIsCappedAndTheCommandKilled() {
        XCTAssertThrowsError(try PasswordCommand(command: "yes", timeoutSeconds: 30).run()) { error in
            XCTAssertTrue("\(error)".contains("printed more than 65536 bytes"), "\(error)")
        }
    }

    func testASecretIsReadAndAFailureReported() throws {
        XCTAssertEqual(try PasswordCommand(command: "printf 's3cret\\n'").run(), Array("s3cret\n".utf8))
        XCTAssertEqual(try CredentialSource.command("printf 's3cret\\n'").secret(), "s3cret")
        XCTAssertThrowsError(try PasswordCommand(command: "exit 3").run()) { error in
            XCTAssertTrue("\(error)".contains("exited with status 3"), "\(error)")
        }
    }
}
