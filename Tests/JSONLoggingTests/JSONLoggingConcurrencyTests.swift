import FeatureGeometry
import FeatureQuerySupport
import Foundation
import JSONLogging
import Logging
import Synchronization
import Testing

@Suite("JSON log handler: concurrent logging")
struct JSONLoggingConcurrencyTests {
    /// Many tasks log long lines (longer than PIPE_BUF, so a pipe would not keep concurrent writes whole
    /// on its own) through one descriptor sink into a pipe; every line must come out whole and exactly once.
    @Test("lines from many tasks never interleave")
    func manyTasks() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let sink = JSONLogSink.fileDescriptor(writeEnd)
        let tasks = 16
        let perTask = 200
        let padding = String(repeating: "x\"é\n", count: 2_000)  // ~10 KB once escaped

        let data = await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8], Never>) in
            // The reader blocks in read(2): a thread of its own, not the cooperative pool. It reads slowly,
            // so the pipe fills and writers wait half-way through their lines, where the kernel would let
            // another writer's bytes in.
            let reader = Thread {
                var collected: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 1 << 14)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    collected.append(contentsOf: buffer[0..<count])
                    usleep(20)
                }
                continuation.resume(returning: collected)
            }
            reader.start()
            Task {
                await withTaskGroup(of: Void.self) { group in
                    for task in 0..<tasks {
                        group.addTask {
                            let logger = Logger(label: "task-\(task)") { JSONLogHandler(label: $0, sink: sink) }
                            for sequence in 0..<perTask {
                                logger.info(
                                    "line \(padding)",
                                    metadata: ["task": .stringConvertible(task), "sequence": .stringConvertible(sequence), "token": "t0p"])
                            }
                        }
                    }
                }
                close(writeEnd)
            }
        }
        close(readEnd)

        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        #expect(lines.last?.isEmpty == true, "the output ends with a newline")
        var seen = Set<[Int]>()
        for line in lines.dropLast() {
            let parsed = try ParsedJSON(parsing: line)
            guard case .number(let task)? = parsed["task"], case .number(let sequence)? = parsed["sequence"] else {
                Issue.record("a line without task and sequence")
                continue
            }
            #expect(parsed["message"] == .string("line \(padding)"))
            #expect(parsed["token"] == .string("<redacted>"))
            #expect(seen.insert([Int(task), Int(sequence)]).inserted, "line \(task)/\(sequence) twice")
        }
        #expect(seen.count == tasks * perTask)
    }
}
