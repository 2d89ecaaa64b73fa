import BenchmarkSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// CPU time of this process (all threads), in seconds.
func processCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// One timed run of either client: how many messages, how many value bytes, how long.
struct Measurement: Sendable {
    var messages: Int
    var bytes: Int
    var seconds: Double
    /// CPU time of the client's process (all threads) over the timed window.
    var cpuSeconds: Double
    /// The librdkafka version the C client reported, if it did.
    var librdkafkaVersion: String? = nil

    var messagesPerSecond: Double { seconds > 0 ? Double(messages) / seconds : 0 }
    var megabytesPerSecond: Double { seconds > 0 ? Double(bytes) / seconds / 1_000_000 : 0 }
    /// CPU microseconds per message.
    var cpuMicrosecondsPerMessage: Double { messages > 0 ? cpuSeconds * 1e6 / Double(messages) : 0 }
}

/// Runs the C baseline (`Benchmarks/c/kafka_bench.c`) and reads its `RESULT ...` line.
struct CClientRunner: Sendable {
    let executable: String
    let bootstrapServers: String
    /// Extra librdkafka properties for the consumer, as for the Swift side.
    var consumerProperties: [String: String] = [:]
    /// librdkafka debug contexts.
    var debugContexts: String? = nil

    func produce(topic: String, count: Int, size: Int) async throws -> Measurement {
        try await run(["produce", bootstrapServers, topic, String(count), String(size)], expected: count)
    }

    func consume(topic: String, count: Int, group: String) async throws -> Measurement {
        try await run(["consume", bootstrapServers, topic, String(count), group], expected: count)
    }

    private func run(_ arguments: [String], expected: Int) async throws -> Measurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["KAFKA_BENCH_CONSUMER_PROPERTIES"] = consumerProperties.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        if let debugContexts { environment["KAFKA_BENCH_DEBUG"] = debugContexts }
        process.environment = environment
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        let status: Int32 = try await PeerProcess.run(process)
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard status == 0 else {
            throw BenchmarkError("kafka_bench \(arguments[0]) exited with status \(status): \(output)")
        }
        let fields = try PeerProcess.resultFields(output, program: "kafka_bench \(arguments[0])")
        guard let messages = fields["messages"].flatMap({ Int($0) }),
            let bytes = fields["bytes"].flatMap({ Int($0) }),
            let seconds = fields["elapsed_s"].flatMap({ Double($0) }),
            let cpuSeconds = fields["cpu_s"].flatMap({ Double($0) })
        else {
            throw BenchmarkError("cannot parse kafka_bench output: \(fields)")
        }
        guard messages == expected else {
            throw BenchmarkError("kafka_bench \(arguments[0]) handled \(messages) of \(expected) messages")
        }
        return Measurement(
            messages: messages, bytes: bytes, seconds: seconds, cpuSeconds: cpuSeconds, librdkafkaVersion: fields["librdkafka"])
    }
}
