import FeatureGeometry
package import FeatureQuerySupport
import Kafka
package import SampleFeatureServer
import Synchronization
import Testing

/// Requests naming OGC API Features collections, and reading their results, for the OGC end-to-end tests:
/// the same harness (embedded Kafka, the worker in process, the sample server) with the server's OGC face.
extension WorkerHarness {
    /// An `ogc` target's JSON: a collection of `landing`, or the landing page itself (a catalog's target).
    package static func ogcTarget(_ landing: String, collection: String? = nil) -> String {
        let member = collection.map { #","collection":"\#($0)""# } ?? ""
        return #"{"type":"ogc","url":"\#(landing)"\#(member)}"#
    }

    /// An `arcgis` target's JSON.
    package static func arcgisTarget(_ url: String) -> String { #"{"type":"arcgis","url":"\#(url)"}"# }

    /// A request message's JSON over targets given as JSON texts, in order; `extra` is added members
    /// (`,"timeoutMs":800`).
    package static func request(_ id: String, task: String? = nil, targets: [String], query: String, extra: String = "") -> String {
        let taskMember = task.map { #","taskId":"\#($0)""# } ?? ""
        return #"{"requestId":"\#(id)"\#(taskMember),"targets":[\#(targets.joined(separator: ","))],"query":\#(query)\#(extra)}"#
    }

    /// A request of one OGC collection.
    package static func ogcRequest(
        _ id: String, task: String? = nil, landing: String, collection: String, query: String = "{}"
    ) -> String {
        request(id, task: task, targets: [ogcTarget(landing, collection: collection)], query: query)
    }

    /// The `url` the worker gives an OGC collection's layer entry.
    package static func collectionURL(_ landing: String, _ collection: String) -> String { landing + "/collections/" + collection }

    /// The collection id of a sample layer on the OGC face (a test's precondition, so it fails the test when
    /// the server stops serving one).
    package static func collection(_ layer: SampleLayer) throws -> String {
        try #require(SampleFeatureServer.ogcCollectionID(layer), "the OGC face serves \(layer)")
    }

    /// Reads outcome messages until `done` holds for what arrived (or `timeout` passes, which fails the test,
    /// naming what did arrive): for results whose number of messages (parts) is known only once they arrive.
    package func outcomes(
        timeout: Duration = .seconds(120), until done: @escaping @Sendable ([ParsedJSON]) -> Bool
    ) async throws -> [ParsedJSON] {
        let received = OutcomeBuffer()
        let reader = self.reader
        let complete = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for try await message in reader.messages {
                    let value = try ParsedJSON(parsing: message.value ?? [])
                    if received.values.withLock({ $0.append(value); return done($0) }) { return true }
                }
                return false
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        let values = received.values.withLock { $0 }
        if !complete {
            Issue.record("the outcomes awaited did not arrive within \(timeout): \(values.map { $0["requestId"] })")
        }
        return values
    }
}

extension ParsedJSON {
    /// The `layers` entries of a result (empty for an error or a result without them).
    package var layerEntries: [ParsedJSON] {
        if case .array(let layers)? = self["layers"] { layers } else { [] }
    }

    /// The first layer entry.
    package var firstLayer: ParsedJSON? { layerEntries.first }

    /// A string member.
    package func text(_ key: String) -> String? {
        if case .string(let value)? = self[key] { value } else { nil }
    }

    /// A whole-number member.
    package func integer(_ key: String) -> Int? {
        if case .number(let value)? = self[key] { Int(exactly: value) } else { nil }
    }

    /// An array member's elements (nil when absent or not an array).
    package func elements(_ key: String) -> [ParsedJSON]? {
        if case .array(let values)? = self[key] { values } else { nil }
    }

    /// A layer entry's `featureIds` as integers (the sample server's ids are JSON integers); nil when absent or
    /// when any id is not an integer.
    package var integerFeatureIDs: [Int]? {
        guard let values = elements("featureIds") else { return nil }
        var ids: [Int] = []
        for value in values {
            guard case .number(let number) = value, let id = Int(exactly: number) else { return nil }
            ids.append(id)
        }
        return ids
    }

    /// The ids of a layer entry's GeoJSON features, in order (integers; nil when any is missing or not one).
    package var integerGeoJSONIDs: [Int]? {
        guard let features = self["features"]?.elements("features") else { return nil }
        var ids: [Int] = []
        for feature in features {
            guard let id = feature.integer("id") else { return nil }
            ids.append(id)
        }
        return ids
    }
}

/// What ``WorkerHarness/outcomes(timeout:until:)`` has read so far, shared with its reading task.
private final class OutcomeBuffer: Sendable {
    let values = Mutex<[ParsedJSON]>([])
}
