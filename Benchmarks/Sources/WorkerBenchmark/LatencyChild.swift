import BenchmarkSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A `query-worker` child started with a README command line (`embedded-kafka`, `run`, `query`), its
/// standard output either logged to a file or read line by line as it comes, each line stamped with the
/// real-time clock when read (the `latency` benchmark compares those stamps with Kafka's timestamps).
final class LatencyChild: @unchecked Sendable {
    /// One line of standard output and when this process read it, in real-time milliseconds since the epoch.
    struct Line: Sendable {
        var text: String
        var readAtMs: Double
    }

    let process: Process
    private let lines: LineBox
    /// The pipe whose reading end the reader thread reads (kept open as long as this child).
    private let pipe: Pipe?

    /// Starts `arguments` (the executable first); standard output goes to `logFile`, or is read line by line.
    init(_ arguments: [String], logFile: String? = nil) throws {
        let box = LineBox()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardError = FileHandle.nullDevice
        if let logFile {
            guard FileManager.default.createFile(atPath: logFile, contents: nil), let log = FileHandle(forWritingAtPath: logFile)
            else { throw BenchmarkError("cannot create \(logFile)") }
            process.standardOutput = log
            try process.run()
            try? log.close()
            pipe = nil
        } else {
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let descriptor = pipe.fileHandleForReading.fileDescriptor
            // A thread of its own: a blocking read must not hold one of the cooperative pool's threads.
            let reader = Thread { Self.readLines(descriptor, into: box) }
            reader.start()
            self.pipe = pipe
        }
        self.process = process
        self.lines = box
    }

    /// Waits for the first line that `matches`; nil when the child ended or `timeout` passed first.
    func line(timeout: Duration, where matches: (String) -> Bool) async -> Line? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = lines.snapshot.first(where: { matches($0.text) }) { return found }
            if lines.isClosed { return lines.snapshot.first { matches($0.text) } }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    /// Waits for the child to exit (polling: Foundation's `waitUntilExit()` spins on Linux); SIGKILL after `timeout`.
    @discardableResult
    func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(2)) }
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGKILL)
        return nil
    }

    /// SIGTERM, then up to `timeout` for a graceful exit, then SIGKILL.
    func stop(timeout: Duration = .seconds(30)) async {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        await waitForExit(timeout: timeout)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private static func readLines(_ descriptor: Int32, into box: LineBox) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            let readAt = ClockMapping().realtimeMilliseconds(ContinuousClock.now)
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                box.append(Line(text: String(decoding: pending[..<newline], as: UTF8.self), readAtMs: readAt))
                pending.removeSubrange(...newline)
            }
        }
        box.close()
    }
}

/// The lines read so far, under a lock.
private final class LineBox: Sendable {
    private let state = Mutex<(lines: [LatencyChild.Line], closed: Bool)>(([], false))

    func append(_ line: LatencyChild.Line) { state.withLock { $0.lines.append(line) } }
    func close() { state.withLock { $0.closed = true } }
    var snapshot: [LatencyChild.Line] { state.withLock { $0.lines } }
    var isClosed: Bool { state.withLock { $0.closed } }
}
