import BenchmarkSupport
import Foundation

/// `query-worker embedded-kafka` in a process of its own, so that the mock brokers' work is charged to
/// neither the C client nor the Swift bridge: both talk to it over loopback TCP.
final class EmbeddedClusterProcess {
    let bootstrapServers: String
    private let process: Process

    /// Starts the cluster with these topics (`NAME:PARTITIONS`) and waits for its bootstrap list.
    init(queryWorker: String, topics: [String], logLevel: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: queryWorker)
        process.arguments = ["embedded-kafka", "--log-level", logLevel] + topics.flatMap { ["--topic", $0] }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        try process.run()
        self.process = process

        // The first line of standard output is the bootstrap list; logs go to standard error.
        var buffer = Data()
        let reader = stdout.fileHandleForReading
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            guard !chunk.isEmpty else {
                while process.isRunning { usleep(20_000) }
                throw BenchmarkError("embedded-kafka exited (status \(process.terminationStatus)) before printing its bootstrap list")
            }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        bootstrapServers = line.trimmingCharacters(in: .whitespaces)
        guard !bootstrapServers.isEmpty else {
            stop()
            throw BenchmarkError("embedded-kafka printed an empty bootstrap list")
        }
    }

    /// SIGTERM, then waits for it to exit (polling: Foundation's `waitUntilExit()` spins a CPU on Linux).
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        while process.isRunning { usleep(20_000) }
    }

    deinit { stop() }
}

