import CLMDB
import Foundation
import Synchronization

/// Writes a suite's section into docs/benchmarks.md, keeping the other sections.
enum Report {
    static func write(section: String, body: String, to path: String) throws {
        let start = "<!-- bench:\(section) -->", end = "<!-- /bench:\(section) -->"
        var doc = (try? String(contentsOfFile: path, encoding: .utf8)) ?? """
        # Benchmarks

        Written by `Tools/bench` (release build); each section is rewritten by its suite and says the machine
        it ran on and the peers measured in the same run. Reproduce with the command in each section.

        """
        let block = "\(start)\n\(body)\n\(end)"
        if let a = doc.range(of: start), let b = doc.range(of: end), a.lowerBound < b.lowerBound {
            doc.replaceSubrange(a.lowerBound..<b.upperBound, with: block)
        } else {
            doc += "\n" + block + "\n"
        }
        try doc.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A description of this machine and the libraries measured.
    static func machine(workDir: String) -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let mem = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("MemTotal") }
            .map { String($0.split(separator: ":")[1]).trimmingCharacters(in: .whitespaces) } ?? "?"
        let lmdb = String(cString: mdb_version(nil, nil, nil))
        let fs = run("/bin/df", ["-hT", workDir]).split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
        let date = ISO8601DateFormatter().string(from: Date())
        return """
        Machine: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(mem) RAM; work folder on: `\(fs.split(separator: " ", omittingEmptySubsequences: true).prefix(3).joined(separator: " "))`.
        Software: \(lmdb); \(run("/usr/bin/env", ["swift", "--version"]).split(separator: "\n").first ?? "swift ?")\(linkage()). Run at \(date).
        Memory: \(memoryProbe.withLock { $0 } ?? "not probed").
        """
    }

    /// What `machine-probe` found when the suite started (`probeMemory`), for `machine`'s Memory line.
    static let memoryProbe = Mutex<String?>(nil)
    /// The MiB `probeMemory` writes and touches: ~0.1 s where memory is quick, ~4 s where the host charges ~55 µs
    /// for each page it took back (and 256 MiB of recently freed memory for the suite's first steps).
    static let memoryProbeMiB = 128

    /// Runs `machine-probe` (built beside this bench) in `workDir` before the suite, and keeps its reading for the
    /// section's Memory line: what a first touch of memory costs moves a suite's times (why: the probe's header,
    /// Tools/machine-probe/main.c, and docs/benchmarks-history.md, 2026-12-04).
    static func probeMemory(in workDir: String) {
        let exe = BenchOptions.sibling("machine-probe")
        let reading: String
        if !FileManager.default.isExecutableFile(atPath: exe) {
            reading = "not probed (`machine-probe` missing: swift build -c release --product machine-probe)"
        } else if let probe = MemoryReading(run(exe, [workDir, String(memoryProbeMiB)])) {
            reading = "first touch of memory free a while \(probe.cold) µs a 4 KiB page, of memory freed moments ago "
                + "\(probe.warm) µs; a new file's pages written into the page cache \(probe.write) µs each "
                + "(`machine-probe`, \(probe.mib) MiB, at the suite's start)"
        } else {
            reading = "`machine-probe` gave no reading"
        }
        memoryProbe.withLock { $0 = reading }
    }

    /// How the `mailstore` beside this bench links the Swift runtime, which every command's start pays for (the
    /// README builds it with `--static-swift-stdlib`); empty when there is no such binary or `ldd` does not answer.
    static func linkage() -> String {
        let exe = BenchOptions.sibling("mailstore")
        guard FileManager.default.isExecutableFile(atPath: exe) else { return "" }
        // No answer from ldd says nothing either way.
        let libraries = run("/usr/bin/ldd", [exe])
        guard !libraries.isEmpty else { return "" }
        return libraries.contains("libswiftCore.so")
            ? "; `mailstore` with the shared Swift runtime (built without `--static-swift-stdlib`)"
            : "; `mailstore` with the Swift runtime linked in (`--static-swift-stdlib`)"
    }

    static func run(_ exe: String, _ args: [String]) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return "" }
        let d = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: d, as: UTF8.self)
    }
}
