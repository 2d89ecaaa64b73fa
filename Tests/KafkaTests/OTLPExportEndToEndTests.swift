import Foundation
import Kafka
import Synchronization
import Testing
import KafkaTestSupport

/// `query-worker run --otlp-endpoint` against a real OTLP/HTTP receiver (Tests/KafkaTests/Interop/otlp_receiver.py,
/// PyPI's opentelemetry-proto decoding ExportTraceServiceRequest, independent of the worker's encoder): the spans
/// of one request arrive as one tree in the caller's trace, and the outcome's `traceparent` names the request's
/// span.
@Suite struct OTLPExportEndToEndTests {
    static let incomingTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let incomingSpan = "00f067aa0ba902b7"

    @Test
    func spansOfARequestReachACollectorAsOneTree() async throws {
        let executable = try #require(QueryWorkerCommandTests.queryWorker, "query-worker was not built")
        let serverExecutable = try #require(QueryWorkerCommandTests.sampleServer, "sample-feature-server was not built")
        let python = try #require(ExternalProcess.python, "no Python (QUERY_WORKER_PYTHON, or .venv) for the OTLP receiver")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spansFile = directory.appendingPathComponent("spans.jsonl").path

        let receiver = try CommandChild.start(
            python, [ExternalProcess.repositoryRoot.appendingPathComponent("Tests/KafkaTests/Interop/otlp_receiver.py").path, spansFile])
        defer { receiver.stop() }
        let receiverPort = try #require(receiver.firstLine.flatMap { Int($0) }, "the receiver printed no port")
        let kafka = try CommandChild.start(
            executable,
            ["embedded-kafka", "--topic", "otlp-requests:1", "--topic", "otlp-results:1", "--topic", "otlp-errors:1",
             "--log-level", "warning"])
        defer { kafka.stop() }
        let bootstrap = try #require(kafka.firstLine, "no bootstrap line")
        let server = try CommandChild.start(serverExecutable, ["--parcels", "2000", "--log-level", "warning"])
        defer { server.stop() }
        let services = try #require(server.firstLine, "no services URL")
        let worker = try CommandChild.start(
            executable,
            ["run", "--bootstrap-servers", bootstrap, "--allowed-hosts", "127.0.0.1", "--group-id", "otlp-tests",
             "--set", "topics.requests=otlp-requests", "--set", "topics.results=otlp-results",
             "--set", "topics.errors=otlp-errors", "--otlp-endpoint", "http://127.0.0.1:\(receiverPort)",
             "--log-level", "warning"],
            readsFirstLine: false, environment: ["OTEL_SERVICE_NAME": "otlp-test-worker"])
        defer { worker.stop() }

        let outcome = try await Self.roundTrip(bootstrap: bootstrap, layer: "\(services)/USA/MapServer/2")
        #expect(outcome.status == "succeeded", "the outcome: \(outcome)")
        #expect(worker.terminate() == 0, "the worker stops gracefully, flushing its spans last")

        let spans = try Self.spans(in: spansFile)
        #expect(spans.allSatisfy { $0["error"] == nil }, "the receiver refused nothing: \(spans.filter { $0["error"] != nil })")
        let received = spans.filter { $0["error"] == nil }
        #expect(received.allSatisfy { $0["path"] as? String == "/v1/traces" })
        #expect(received.allSatisfy { $0["contentType"] as? String == "application/x-protobuf" })
        #expect(received.allSatisfy { $0["service"] as? String == "otlp-test-worker" })

        let request = try #require(received.first { $0["kind"] as? Int == 5 }, "a consumer span among \(received.map { $0["name"] ?? "" })")
        #expect(request["name"] as? String == "process otlp-requests")
        #expect(request["traceId"] as? String == Self.incomingTrace, "the caller's trace is continued")
        #expect(request["parentSpanId"] as? String == Self.incomingSpan, "the caller's span is the request span's parent")
        let requestAttributes = try #require(request["attributes"] as? [String: Any])
        #expect(requestAttributes["messaging.system"] as? String == "kafka")
        #expect(requestAttributes["messaging.destination.name"] as? String == "otlp-requests")
        #expect(requestAttributes["messaging.consumer.group.name"] as? String == "otlp-tests")
        #expect(requestAttributes["messaging.destination.partition.id"] as? String == "0")
        #expect(requestAttributes["query_worker.request_id"] as? String == "otlp-1")
        let requestSpanID = try #require(request["spanId"] as? String)
        #expect(outcome.traceParent == "00-\(Self.incomingTrace)-\(requestSpanID)-01", "the outcome carries the request span's context")

        let layer = try #require(received.first { $0["name"] as? String == "query layer" })
        #expect(layer["parentSpanId"] as? String == requestSpanID)
        let layerSpanID = try #require(layer["spanId"] as? String)
        let pages = received.filter { $0["kind"] as? Int == 3 }
        #expect(pages.count >= 2, "metadata and query pages: \(pages.map { $0["name"] ?? "" })")
        for page in pages {
            #expect(page["parentSpanId"] as? String == layerSpanID)
            let attributes = page["attributes"] as? [String: Any] ?? [:]
            #expect(attributes["http.request.method"] as? String == page["name"] as? String)
            #expect(attributes["server.address"] as? String == "127.0.0.1")
            #expect(attributes["url.scheme"] as? String == "http")
            #expect(attributes["http.response.status_code"] as? Int == 200)
            #expect(attributes["url.full"] == nil)
        }
        #expect(Set(received.compactMap { $0["traceId"] as? String }) == [Self.incomingTrace], "one trace")
    }

    /// What the test reads of the outcome.
    struct Outcome: Sendable, CustomStringConvertible {
        var status: String?
        var traceParent: String?
        var description: String { "status \(status ?? "none"), traceparent \(traceParent ?? "none")" }
    }

    /// Sends one request with a `traceparent` and reads its outcome (at most 120 s).
    static func roundTrip(bootstrap: String, layer: String) async throws -> Outcome {
        let client = KafkaClientConfiguration(bootstrapServers: [bootstrap])
        let producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: TestSupport.logger)
        let reader = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(client: client, groupID: "otlp-reader", topics: ["otlp-results", "otlp-errors"]),
            logger: TestSupport.logger)
        let running = [Task { try await producer.run() }, Task { try await reader.run() }]
        defer {
            producer.triggerGracefulShutdown()
            reader.triggerGracefulShutdown()
            for task in running { task.cancel() }
        }
        let request = #"{"requestId":"otlp-1","targets":[{"type":"arcgis","url":"\#(layer)"}],"query":{"where":"POP2000 > 1000000"}}"#
        _ = try await producer.send(KafkaProducerMessage(
            topic: "otlp-requests", key: "otlp-1", value: request,
            headers: [KafkaHeader(key: "traceparent", string: "00-\(incomingTrace)-\(incomingSpan)-01")]))
        return try await withThrowingTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                for try await message in reader.messages {
                    let json = try JSONSerialization.jsonObject(with: Data(message.value ?? [])) as? [String: Any]
                    return Outcome(status: json?["status"] as? String, traceParent: message.header("traceparent")?.stringValue)
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(120))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return try #require(first, "no outcome within 120 s")
        }
    }

    /// The receiver's JSON lines.
    static func spans(in path: String) throws -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }
}
