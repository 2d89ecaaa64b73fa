import Foundation

/// A request's terminal outcome as a consumer reads it: a result (`succeeded`, `partial`) put back together
/// from its parts, or an error (`rejected`, `failed`, `superseded`, `cancelled`, `expired`).
///
/// Decoded with `JSONDecoder` from the contract's JSON (docs/contract/README.md): members the command does
/// not show (GeoJSON features, `source`) are skipped, so this is a reader's view, not the worker's
/// encoder types run backwards.
struct Outcome: Sendable, Decodable {
    var requestId: String?
    var taskId: String?
    var status: String
    var part: Int?
    var parts: Int?
    var receivedAt: String?
    var finishedAt: String?
    var durationMs: Int?
    var worker: String?
    var layers: [Layer]?
    var error: ErrorBody?
    var supersededBy: String?

    /// One layer's entry of a result.
    struct Layer: Sendable, Decodable {
        var url: String
        var layerId: Int?
        var name: String?
        var status: String
        var count: Int?
        var complete: Bool?
        var objectIds: [Int64]?
        var error: ErrorBody?
    }

    /// The contract's `error` object.
    struct ErrorBody: Sendable, Decodable {
        var code: String
        var message: String
        var retryable: Bool?
    }

    /// Results are `succeeded` or `partial`; every other status comes on the errors topic.
    var isResult: Bool { status == "succeeded" || status == "partial" }

    /// The whole outcome from the messages of one run of one request, in part order (one for an error or a
    /// result that fit in a message). Follows the contract's reassembly: the envelope of part 1, and each
    /// layer's `objectIds` slices appended in part order, matched by `url`.
    init(parts: [[UInt8]]) throws {
        let decoder = JSONDecoder()
        guard let first = parts.first else { throw OutcomeDecodingError(message: "an outcome without messages") }
        self = try decoder.decode(Outcome.self, from: Data(first))
        guard parts.count > 1 else { return }
        var layers = self.layers ?? []
        var index: [String: Int] = [:]
        for (position, layer) in layers.enumerated() { index[layer.url] = position }
        for bytes in parts.dropFirst() {
            let next = try decoder.decode(Outcome.self, from: Data(bytes))
            for entry in next.layers ?? [] {
                if let position = index[entry.url] {
                    if let ids = entry.objectIds {
                        if layers[position].objectIds == nil { layers[position].objectIds = [] }
                        layers[position].objectIds?.append(contentsOf: ids)
                    }
                } else {
                    index[entry.url] = layers.count
                    layers.append(entry)
                }
            }
        }
        self.layers = layers
        part = 1
        self.parts = 1
    }
}

/// An outcome message that is not the contract's JSON.
struct OutcomeDecodingError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The raw JSON of an outcome, for `--json`: the message itself when it came whole, else the parts put back
/// together as the contract's reference `reassemble` does (features included), with `part` and `parts` 1.
enum OutcomeJSON {
    static func text(parts: [[UInt8]]) throws -> String {
        if parts.count == 1, let only = parts.first { return String(decoding: only, as: UTF8.self) }
        var whole: [String: Any] = [:]
        var layers: [[String: Any]] = []
        var index: [String: Int] = [:]
        for bytes in parts {
            guard let message = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                throw OutcomeDecodingError(message: "a result part is not a JSON object")
            }
            if whole.isEmpty { whole = message }
            for entry in message["layers"] as? [[String: Any]] ?? [] {
                let url = entry["url"] as? String ?? ""
                guard let position = index[url] else {
                    index[url] = layers.count
                    layers.append(entry)
                    continue
                }
                if let ids = entry["objectIds"] as? [Any] {
                    layers[position]["objectIds"] = (layers[position]["objectIds"] as? [Any] ?? []) + ids
                }
                if let features = (entry["features"] as? [String: Any])?["features"] as? [Any],
                    var collection = layers[position]["features"] as? [String: Any]
                {
                    collection["features"] = (collection["features"] as? [Any] ?? []) + features
                    layers[position]["features"] = collection
                }
            }
        }
        whole["layers"] = layers
        whole["part"] = 1
        whole["parts"] = 1
        let data = try JSONSerialization.data(withJSONObject: whole, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
