import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Kafka
import Testing
import WorkerTestSupport
@testable import RequestContract

@testable import QueryWorker

/// The request's `progress` flag and the progress event's JSON: the decoder reads the flag (and refuses
/// anything but a boolean at its path), requests that differ in it do not share a run, and the encoder
/// reproduces the documented example and writes nothing the schema refuses.
@Suite struct ContractProgressTests {
    static let layer = "https://gis.example.org/arcgis/rest/services/Parcels/FeatureServer/0"

    static func decode(_ extra: String) throws -> IncomingMessage {
        let value = #"{"requestId":"r-1","targets":[{"type":"arcgis","url":"\#(layer)"}],"query":{}\#(extra)}"#
        return try ContractSupport.decoder().decode(Array(value.utf8), key: nil, receivedAt: 0)
    }

    @Test(arguments: [("", false), (#","progress":false"#, false), (#","progress":true"#, true)])
    func theFlagIsReadWithItsDefault(_ member: String, _ expected: Bool) throws {
        guard case .query(let request) = try Self.decode(member) else {
            Issue.record("not a query: \(try Self.decode(member))")
            return
        }
        #expect(request.progress == expected)
    }

    @Test(arguments: [#""true""#, "1", "null", "[]", "{}"])
    func anythingButABooleanIsRefusedAtItsPath(_ value: String) throws {
        guard case .rejected(let rejection) = try Self.decode(#","progress":\#(value)"#) else {
            Issue.record("\(value) was accepted")
            return
        }
        #expect(rejection.code == .invalidType)
        #expect(rejection.path == "progress")
        #expect(rejection.requestId == "r-1")
    }

    @Test func theExampleRequestAsksForProgress() throws {
        #expect(try ContractExampleTests.query("request-progress.json").progress)
    }

    /// A run publishes progress for the requests on it, so a request asking for events never joins a run
    /// that sends none (nor the reverse); two that both ask share one.
    @Test func requestsThatDifferInProgressDoNotShareARun() throws {
        var first = try ContractSharingTests.request("r-1", where: "POP2000 > 1")
        var second = try ContractSharingTests.request("r-2", where: "POP2000 > 1")
        first.progress = true
        #expect(!first.asksSame(as: second))
        second.progress = true
        #expect(first.asksSame(as: second))
        #expect(first.serviceQuery == second.serviceQuery)
    }

    static func ms(_ text: String) throws -> Int64 { try #require(RFC3339.milliseconds(from: text)) }

    /// The event of `examples/progress-ogc-paging.json`.
    static func exampleEvent() throws -> ProgressEvent {
        var ogc = ProgressEvent.Layer(
            ProgressLayer(url: "https://demo.ldproxy.net/daraa/collections/AgricultureSrf", collection: "AgricultureSrf"))
        (ogc.pages, ogc.features, ogc.expected) = (3, 300, 745)
        var arcgis = ProgressEvent.Layer(ProgressLayer(
            url: "https://services3.arcgis.com/GVgbJbqm8hXASVYi/arcgis/rest/services/LA_County_Parcels/FeatureServer/0",
            layerId: 0))
        (arcgis.pages, arcgis.features, arcgis.expected) = (2, 4000, 6120)
        return ProgressEvent(
            requestId: "states-report-1", taskId: "states-report", worker: "query-worker-7d9f/1",
            at: try ms("2025-06-01T12:00:02.120Z"), elapsedMs: 2000, layers: [ogc, arcgis])
    }

    @Test func theEncoderReproducesTheExample() throws {
        let encoded = try ParsedJSON(parsing: try Self.exampleEvent().encoded())
        #expect(encoded == (try ContractEncodingTests.example("progress-ogc-paging.json")))
    }

    /// Keyed and headed as the outcomes are: the taskId as key, `request-id` and `task-id`.
    @Test func theMessageIsKeyedByTaskWithTheOutcomesHeaders() throws {
        let message = try Self.exampleEvent().producerMessage(topic: "feature-query-progress")
        #expect(message.topic == "feature-query-progress")
        #expect(message.key == Array("states-report".utf8))
        #expect(message.headers == [
            KafkaHeader(key: "request-id", string: "states-report-1"), KafkaHeader(key: "task-id", string: "states-report"),
        ])
    }

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func everythingTheEncoderWritesSatisfiesTheSchema() async throws {
        var events = [try Self.exampleEvent()]
        var done = ProgressEvent.Layer(ProgressLayer(url: Self.layer, layerId: 0))
        (done.pages, done.features, done.done) = (1, 0, true)
        var event = try Self.exampleEvent()
        (event.layers, event.elapsedMs, event.requestId) = ([], 0, "é \"quoted\" ☃")
        events.append(event)
        event.layers = [done, ProgressEvent.Layer(ProgressLayer(url: Self.layer + "/x", collection: "c"))]
        events.append(event)
        let verdicts = try await ContractSupport.validate(events.map { ("progress", $0.encoded()) })
        for (index, verdict) in verdicts.enumerated() {
            #expect(verdict.valid, "event \(index): \(verdict.errors)")
        }
        // And the schema refuses what an event must not be.
        let refused = try await ContractSupport.validate([
            ("progress", Array(#"{"kind":"result","requestId":"r","taskId":"t","worker":"w","at":"2025-06-01T12:00:00Z","elapsedMs":0,"layers":[]}"#.utf8)),
            ("progress", Array(#"{"kind":"progress","requestId":"r","taskId":"t","worker":"w","at":"2025-06-01T12:00:00Z","elapsedMs":-1,"layers":[]}"#.utf8)),
        ])
        #expect(refused.allSatisfy { !$0.valid })
    }
}
