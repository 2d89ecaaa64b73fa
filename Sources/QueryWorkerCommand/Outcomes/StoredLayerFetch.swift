import FeatureQueryClient
import Foundation
import Logging
import QueryOutcomes

/// `query --wait`'s stored layers (contract 1.3): fetched through their presigned URLs with the client library's
/// reader (size and SHA-256 verified, gzip or zstd decompressed) and put where an inline layer has its ids and
/// features, so the block prints them as it prints an inline layer.
enum StoredLayerFetch {
    /// How much of one stored layer `query` holds to print it: beyond it, the command says to fetch the object
    /// itself (`--location-only` prints where it is).
    static let maxBytes = 1 << 30

    /// Fetches every stored layer of `outcome` (read from `parts`): ids go into the layers, features are returned
    /// by layer URL as the inline ones are.
    static func resolve(
        _ outcome: inout Outcome, parts: [[UInt8]], reader: StoredResultReader
    ) async throws -> [(url: String, geoJSON: String)] {
        guard outcome.layers?.contains(where: { $0.location != nil }) == true else { return [] }
        let typed: QueryOutcome
        do {
            typed = try QueryOutcome(messages: parts.map { Data($0) })
        } catch {
            throw CommandFailure("\(error.message) (\(error.code))")
        }
        var features: [(url: String, geoJSON: String)] = []
        for layer in typed.layers where layer.location != nil {
            let resolved: QueryOutcome.LayerResult
            do {
                resolved = try await reader.resolving(layer, maxBytes: maxBytes)
            } catch {
                throw CommandFailure(
                    "the stored result of \(layer.url) could not be fetched (\(error.code)\(error.isRetryable ? ", retryable" : "")): "
                        + "\(error.message)")
            }
            if let collection = resolved.featureCollection {
                features.append((layer.url, String(decoding: collection, as: UTF8.self)))
            }
            guard let index = outcome.layers?.firstIndex(where: { $0.url == layer.url }) else { continue }
            if let ids = resolved.objectIds { outcome.layers?[index].objectIds = ids }
            if let ids = resolved.featureIds {
                outcome.layers?[index].featureIds = ids.map { id -> Outcome.FeatureIdentifier? in
                    switch id {
                    case .integer(let number): .integer(number)
                    case .string(let text): .string(text)
                    }
                }
            }
        }
        return features
    }
}
