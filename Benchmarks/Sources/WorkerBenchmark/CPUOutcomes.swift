import BenchmarkSupport
import Foundation
import QueryOutcomes

/// What one outcome of the CPU benchmark answered, reduced to what every side must agree on: the layer's
/// `count`, `complete` and `incompleteReason`, its `objectIds` and its GeoJSON features (each one's id, geometry
/// and properties), the lists kept as their length and a hash (20,000 ids a request, for every run of every side).
///
/// The outcomes are decoded after a run's measured window (the driver shares a CPU with the measured side), from
/// the values ``OutcomeReader`` kept. Each is checked against itself and the workload (ids ascending and
/// distinct; every id when `complete`; a features query's features those ids, `maxFeatures` of them at most);
/// ``CPUResults/checkAgreement()`` then compares the runs of every side with the worker's, request by request
/// (the same seeded queries every run).
struct OutcomeDigest: Equatable, Sendable {
    var count: Int
    var complete: Bool
    var incompleteReason: String?
    var idCount: Int
    var idsHash: Int
    var featureCount: Int
    var featuresHash: Int

    /// The digests of a run's outcomes by request index (the number after the last `-` of its request id).
    static func digests(_ outcomes: [OutcomeReader.Outcome], kind: CPUWorkload.Kind, log: String) throws -> [Int: OutcomeDigest] {
        let decoder = JSONDecoder()
        var digests: [Int: OutcomeDigest] = [:]
        for outcome in outcomes {
            guard let index = outcome.requestId.split(separator: "-").last.flatMap({ Int($0) }) else {
                throw BenchmarkError("an outcome with request id \(outcome.requestId), not RUN-INDEX; log: \(log)")
            }
            let result: ResultMessage
            do { result = try decoder.decode(ResultMessage.self, from: Data(outcome.value)) } catch {
                throw BenchmarkError("request \(outcome.requestId): its outcome is not a result (\(error)); log: \(log)")
            }
            guard result.layers.count == 1 else {
                throw BenchmarkError("request \(outcome.requestId): \(result.layers.count) layers in its outcome, not 1; log: \(log)")
            }
            do throws(Problem) { digests[index] = try digest(result.layers[0], kind: kind) } catch {
                throw BenchmarkError("request \(outcome.requestId): \(error.text); log: \(log)")
            }
        }
        return digests
    }

    /// One layer's digest, once it is seen to say what the contract says for `kind`.
    private static func digest(_ layer: ResultMessage.Layer, kind: CPUWorkload.Kind) throws(Problem) -> OutcomeDigest {
        guard let count = layer.count, let complete = layer.complete else { throw Problem("no count or complete") }
        let ids = layer.objectIds ?? []
        let features = layer.features?.features ?? []
        switch kind {
        case .count:
            guard complete, layer.objectIds == nil, layer.features == nil else {
                throw Problem("a count with ids or features, or not complete")
            }
        case .ids, .features:
            guard let objectIds = layer.objectIds else { throw Problem("no objectIds") }
            guard zip(objectIds, objectIds.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw Problem("objectIds not ascending and distinct")
            }
            let wanted = kind == .ids ? count : min(count, CPUWorkload.maxFeatures)
            guard objectIds.count == wanted, complete == (objectIds.count >= count) else {
                throw Problem("\(objectIds.count) objectIds (complete: \(complete)) for a count of \(count)")
            }
        }
        if kind == .features {
            guard let collection = layer.features, collection.type == "FeatureCollection" else { throw Problem("no FeatureCollection") }
            guard collection.features.map(\.id) == ids.map(Optional.some),
                collection.features.allSatisfy({ $0.type == "Feature" && $0.geometry != nil })
            else {
                throw Problem("the features are not the objectIds' Features with geometry")
            }
        } else if kind == .ids, layer.features != nil {
            throw Problem("an ids result with features")
        }
        var idsHasher = Hasher()
        idsHasher.combine(ids)
        var featuresHasher = Hasher()
        featuresHasher.combine(features)
        return OutcomeDigest(
            count: count, complete: complete, incompleteReason: layer.incompleteReason, idCount: ids.count,
            idsHash: idsHasher.finalize(), featureCount: features.count, featuresHash: featuresHasher.finalize())
    }

    /// How this digest differs from `other`, for a message.
    func difference(from other: OutcomeDigest) -> String {
        var parts: [String] = []
        if count != other.count || complete != other.complete || incompleteReason != other.incompleteReason {
            parts.append("count \(count) (complete: \(complete), \(incompleteReason ?? "-")) against \(other.count) "
                + "(\(other.complete), \(other.incompleteReason ?? "-"))")
        }
        if idCount != other.idCount || idsHash != other.idsHash {
            parts.append("\(idCount) objectIds against \(other.idCount), not the same")
        }
        if featureCount != other.featureCount || featuresHash != other.featuresHash {
            parts.append("\(featureCount) features against \(other.featureCount), not the same (ids, geometry or properties)")
        }
        return parts.joined(separator: "; ")
    }

    private struct Problem: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}

/// The members of a result message (docs/contract/schemas/result.schema.json) the digest reads.
private struct ResultMessage: Decodable {
    struct Layer: Decodable {
        var count: Int?
        var complete: Bool?
        var incompleteReason: String?
        var objectIds: [Int64]?
        var features: FeatureCollection?
    }

    struct FeatureCollection: Decodable {
        var type: String
        var features: [Feature]
    }

    /// A GeoJSON Feature: its id, its geometry and its properties, compared as values (the sides write numbers
    /// differently: the worker and the floor copy the server's text, Python prints its floats).
    struct Feature: Decodable, Hashable {
        var type: String
        var id: Int64?
        var geometry: Geometry?
        var properties: [String: Outcome.FieldValue]?
    }

    struct Geometry: Decodable, Hashable {
        var type: String
        var coordinates: Coordinates
    }

    /// Nested coordinate arrays of any depth (a Point's position, a Polygon's rings).
    indirect enum Coordinates: Decodable, Hashable {
        case number(Double)
        case list([Coordinates])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .list(try container.decode([Coordinates].self))
            }
        }
    }

    var layers: [Layer]
}
