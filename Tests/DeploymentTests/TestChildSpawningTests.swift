import Foundation
import Testing

/// Every child a test starts goes through ``ChildProcessFixture``'s `SpawnedChild` (`posix_spawn`, descriptors
/// closed in the child with one `closefrom` action). Foundation's `Process.run()` adds a close action per open
/// descriptor and registers run-loop sources from the calling thread; in the test processes, which hold
/// thousands of descriptors and over a thousand threads among their parallel suites, it crashed (SIGSEGV) more
/// than once. This keeps it out of every test source.
@Suite("Tests start children with SpawnedChild only")
struct TestChildSpawningTests {
    /// What starting (or holding) a Foundation `Process` looks like in a source line.
    static let foundationProcess = try? NSRegularExpression(pattern: #"\bProcess\(\)|:\s*Process\b|\bProcess\.run\("#)

    @Test func noTestSourceStartsAFoundationProcess() throws {
        let pattern = try #require(Self.foundationProcess)
        let tests = ScriptsTestProcessesTests.repositoryRoot.appendingPathComponent("Tests")
        let enumerator = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        var sources = 0
        var offenders: [String] = []
        // This file names the pattern's examples in its own check.
        for case let url as URL in enumerator where url.pathExtension == "swift" && url.lastPathComponent != "TestChildSpawningTests.swift" {
            sources += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.matches(pattern, String(line)) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                offenders.append("\(url.path.replacingOccurrences(of: tests.path + "/", with: "")):\(number + 1): \(line)")
            }
        }
        #expect(sources > 100, "the test sources were found (\(sources))")
        #expect(offenders.isEmpty, "start children with SpawnedChild or CapturedChild:\n\(offenders.joined(separator: "\n"))")
    }

    /// The check itself finds each way of using one, and leaves the names that only contain the word alone.
    @Test func thePatternFindsFoundationProcessesOnly() throws {
        let pattern = try #require(Self.foundationProcess)
        #expect(Self.matches(pattern, "let process = Process()"))
        #expect(Self.matches(pattern, "private let process: Process"))
        #expect(Self.matches(pattern, "try Process.run(url, arguments: [])"))
        #expect(!Self.matches(pattern, "let child = try SpawnedChild(arguments)"))
        #expect(!Self.matches(pattern, "@Test func oneKerberosIdentityPerProcess() throws {"))
        #expect(!Self.matches(pattern, "let output = try await ChildProcesses.complete([tool])"))
    }

    private static func matches(_ pattern: NSRegularExpression, _ line: String) -> Bool {
        pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
    }
}
