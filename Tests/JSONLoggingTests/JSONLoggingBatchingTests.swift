import FeatureQuerySupport
import Foundation
import JSONLogging
import Logging
import Testing
import FeatureGeometry

/// A pipe a batched sink writes into, read by the test.
private struct TestPipe {
    let read: Int32
    let write: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        (read, write) = (ends[0], ends[1])
    }

    /// What arrives within `milliseconds` (polling until the first byte, then until the pipe stays quiet
    /// for `quiet` ms or `count` lines arrived). A reader that gives up early leaves a writer blocked on the full
    /// pipe: give a `quiet` longer than any pause of the writers when they write more than the pipe holds.
    func lines(within milliseconds: Int32, count: Int = .max, quiet: Int32 = 20) -> [String] {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var wait = milliseconds
        while collected.count(where: { $0 == 0x0A }) < count {
            var descriptor = pollfd(fd: read, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, wait) > 0 else { break }
            let got = buffer.withUnsafeMutableBytes { Foundation.read(read, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            collected.append(contentsOf: buffer[0..<got])
            wait = quiet
        }
        return collected.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    func close() {
        Foundation.close(read)
        Foundation.close(write)
    }
}

@Suite("JSON log sink: batched writes to a descriptor")
struct JSONLoggingBatchingTests {
    @Test("an info line is written within the window, without a flush")
    func writtenWithinTheWindow() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let logger = Logger(label: "batch") { JSONLogHandler(label: $0, sink: .batchedFileDescriptor(pipe.write, window: .milliseconds(2))) }
        logger.info("first")
        logger.info("second")
        let lines = pipe.lines(within: 5_000, count: 2)
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""message":"first""#) == true)
        #expect(lines.last?.contains(#""message":"second""#) == true)
    }

    @Test("info lines wait for the window; a warning writes them and itself at once, in order; flush writes them")
    func urgentAndFlush() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let sink = JSONLogSink.batchedFileDescriptor(pipe.write, window: .seconds(60))
        let logger = Logger(label: "batch") { JSONLogHandler(label: $0, sink: sink) }
        logger.info("waiting")
        #expect(pipe.lines(within: 100).isEmpty, "an info line waits for the window")
        logger.warning("urgent")
        let lines = pipe.lines(within: 5_000, count: 2)
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""message":"waiting""#) == true)
        #expect(lines.last?.contains(#""message":"urgent""#) == true)

        logger.notice("held")
        #expect(pipe.lines(within: 50).isEmpty)
        sink.flush()
        let flushed = pipe.lines(within: 5_000, count: 1)
        #expect(flushed.count == 1 && flushed.first?.contains(#""message":"held""#) == true)
    }

    @Test("lines from many tasks come out whole, once each, in each task's order")
    func manyTasks() async throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        // Room in the pipe for everything (~600 KB), so no writer ever waits on the reader: a reader that gave up
        // would otherwise leave the writer's thread blocked, and `flush()` with it, and the whole test process.
        let F_SETPIPE_SZ: Int32 = 1031  // <fcntl.h> (Linux); not imported into Swift
        try #require(fcntl(pipe.write, F_SETPIPE_SZ, 1 << 20) >= 1 << 20)
        let sink = JSONLogSink.batchedFileDescriptor(pipe.write, window: .milliseconds(1))
        let tasks = 8
        let perTask = 300
        let padding = String(repeating: "x\"é", count: 20)
        // The reader blocks in poll(2) and read(2): a thread of its own, not the cooperative pool.
        async let collected = withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            Thread { continuation.resume(returning: pipe.lines(within: 10_000, count: tasks * perTask, quiet: 10_000)) }.start()
        }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    let logger = Logger(label: "task-\(task)") { JSONLogHandler(label: $0, sink: sink) }
                    for sequence in 0..<perTask {
                        logger.info("line \(padding)", metadata: ["task": .stringConvertible(task), "sequence": .stringConvertible(sequence)])
                    }
                }
            }
        }
        sink.flush()
        let lines = await collected
        #expect(lines.count == tasks * perTask)
        var next = [Int](repeating: 0, count: tasks)
        for line in lines {
            guard case .object(let members)? = try? ParsedJSON(parsing: Array(line.utf8)),
                case .number(let task)? = members["task"], case .number(let sequence)? = members["sequence"]
            else {
                Issue.record("not a whole line: \(line.prefix(200))")
                continue
            }
            #expect(Int(sequence) == next[Int(task)], "task \(Int(task)) out of order")
            next[Int(task)] = Int(sequence) + 1
        }
        #expect(next == [Int](repeating: perTask, count: tasks))
    }
}
