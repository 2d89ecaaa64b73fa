import Foundation
import Glibc

/// A child whose standard output and error go to files in a directory of its own, removed with this value; its
/// standard input is a file of the given bytes, or /dev/null. What every test that runs a command or a
/// long-running `query-worker` shares.
///
/// Files, not pipes: a chatty child blocks on a full pipe nobody reads while the test waits for it. Started with
/// ``SpawnedChild`` (`posix_spawn`), never Foundation's `Process`, whose `run()` crashed (SIGSEGV) in test
/// processes holding thousands of descriptors and threads among their parallel suites.
package final class CapturedChild: Sendable {
    package let process: SpawnedChild
    private let directory: String

    /// Starts `arguments[0]` (an absolute path) with the rest as its arguments.
    package init(
        _ arguments: [String], environment: ChildProcesses.Environment = .inherited, input: [UInt8]? = nil,
        workingDirectory: String? = nil, ownProcessGroup: Bool = false
    ) throws {
        guard let executable = arguments.first else { throw ChildProcessFailure("no command to run") }
        let name = URL(fileURLWithPath: executable).lastPathComponent
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            process = try Self.spawn(
                arguments, in: directory, environment: environment, input: input, workingDirectory: workingDirectory,
                ownProcessGroup: ownProcessGroup)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    deinit {
        // A child dropped while it runs is killed (nothing a test started outlives it); one that ended is reaped.
        if process.termination == nil { process.signal(SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What the child wrote to standard output so far.
    package var standardOutputBytes: [UInt8] {
        FileManager.default.contents(atPath: "\(directory)/out").map { [UInt8]($0) } ?? []
    }

    /// ``standardOutputBytes`` as text.
    package var standardOutput: String { String(decoding: standardOutputBytes, as: UTF8.self) }

    /// What the child wrote to standard error so far.
    package var standardError: String {
        String(decoding: FileManager.default.contents(atPath: "\(directory)/err") ?? Data(), as: UTF8.self)
    }

    /// The first line of standard output once the child has written it (the bootstrap list, a server's URL), or
    /// nil when the child ended or `timeout` passed first. Polls the file, blocking this thread: only for a
    /// synchronous start that prints its line within moments.
    package func firstLine(timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let bytes = standardOutputBytes
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: bytes[..<newline], as: UTF8.self)
            }
            guard process.isRunning else { return nil }
            usleep(10_000)
        }
        return nil
    }

    /// What it wrote and how it ended, once it has.
    package var output: ChildOutput {
        ChildOutput(termination: process.termination, standardOutputBytes: standardOutputBytes, standardError: standardError)
    }

    private static func spawn(
        _ arguments: [String], in directory: String, environment: ChildProcesses.Environment, input: [UInt8]?,
        workingDirectory: String?, ownProcessGroup: Bool
    ) throws -> SpawnedChild {
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        let output = open("\(directory)/out", flags, 0o644), errors = open("\(directory)/err", flags, 0o644)
        var inputPath = "/dev/null"
        if let input {
            inputPath = "\(directory)/in"
            guard FileManager.default.createFile(atPath: inputPath, contents: Data(input)) else {
                throw ChildProcessFailure("cannot write the standard input of \(arguments[0]) to \(inputPath)")
            }
        }
        let standardInput = open(inputPath, O_RDONLY | O_CLOEXEC)
        defer { [output, errors, standardInput].filter { $0 >= 0 }.forEach { close($0) } }  // the child has its copies
        guard output >= 0, errors >= 0, standardInput >= 0 else {
            throw ChildProcessFailure("cannot open the files of \(arguments[0]) in \(directory): errno \(errno)")
        }
        return try SpawnedChild(
            arguments, environment: environment.variables, standardInput: standardInput, standardOutput: output,
            standardError: errors, ownProcessGroup: ownProcessGroup, workingDirectory: workingDirectory)
    }
}

/// What a finished (or timed-out) child wrote, and how it ended.
package struct ChildOutput: Sendable, CustomStringConvertible {
    /// How it ended; nil if it still ran when its output was read.
    package var termination: SpawnedChild.Termination?
    package var standardOutputBytes: [UInt8]
    package var standardError: String

    /// The exit code, or the number of the signal that ended it; -1 while it runs.
    package var status: Int32 { termination?.status ?? -1 }

    /// Whether it exited by itself (not by a signal).
    package var exited: Bool { if case .exited = termination { true } else { false } }

    package var stdout: String { String(decoding: standardOutputBytes, as: UTF8.self) }
    package var stderr: String { standardError }

    package var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

extension ChildProcesses.Environment {
    /// The child's variables (nil: this process's, as they are).
    var variables: [String: String]? {
        switch self {
        case .inherited: nil
        case .replaced(let replaced): replaced
        case .adding(let added): ProcessInfo.processInfo.environment.merging(added) { $1 }
        }
    }
}

extension ChildProcesses {
    /// Runs a command to its end and returns what it wrote and how it ended, whatever that was; after `timeout`
    /// it gets SIGTERM, then SIGKILL 10 s later. Waits with `Task.sleep`, never blocking a cooperative thread.
    package static func complete(
        _ arguments: [String], environment: Environment = .inherited, input: [UInt8]? = nil,
        workingDirectory: String? = nil, timeout: Duration = .seconds(120)
    ) async throws -> ChildOutput {
        let child = try CapturedChild(arguments, environment: environment, input: input, workingDirectory: workingDirectory)
        if await child.process.waitForExit(timeout: timeout) == nil {
            await child.process.stop(grace: .seconds(10))
        }
        return child.output
    }

    /// ``complete(_:environment:input:workingDirectory:timeout:)`` blocking this thread: only for synchronous
    /// callers (a test trait's condition, a static initialiser) of quick commands.
    package static func completeBlocking(
        _ arguments: [String], environment: Environment = .inherited, workingDirectory: String? = nil,
        timeout: Duration = .seconds(60)
    ) throws -> ChildOutput {
        let child = try CapturedChild(arguments, environment: environment, workingDirectory: workingDirectory)
        if child.process.waitForExitBlocking(timeout: timeout) == nil {
            child.process.signal(SIGTERM)
            if child.process.waitForExitBlocking(timeout: .seconds(10)) == nil { _ = child.process.killAndWait() }
        }
        return child.output
    }
}
