import Foundation

/// A request's terminal outcome as a consumer reads it: a result (`succeeded`, `partial`) put back together
/// from its parts, or an error (`rejected`, `failed`, `superseded`, `cancelled`, `expired`).
///
/// Decoded with `JSONDecoder` from the contract's JSON (docs/contract/README.md): members the command does
/// not show (GeoJSON features, `source`) are skipped, so this is a reader's view, not the worker's
/// encoder types run backwards.
package struct Outcome: Sendable, Decodable {
    package var requestId: String?
    package var taskId: String?
    package var status: String
    package var part: Int?
    package var parts: Int?
    package var receivedAt: String?
    package var finishedAt: String?
    package var durationMs: Int?
    package var worker: String?
    package var layers: [Layer]?
    package var error: ErrorBody?
    package var supersededBy: String?

    /// One layer's entry of a result (or, for `result: catalog`, one target's).
    package struct Layer: Sendable, Decodable {
        package var url: String
        package var collection: String?
        package var layerId: Int?
        package var name: String?
        package var status: String
        package var count: Int?
        package var complete: Bool?
        package var incompleteReason: String?
        package var filteredBy: String?
        package var objectIds: [Int64]?
        package var featureIds: [FeatureIdentifier?]?
        package var catalog: [CatalogItem]?
        package var orderedBy: String?
        package var statistics: [StatisticsRow]?
        package var statisticsBy: String?
        package var extent: Extent?
        package var distinct: [FieldValues]?
        package var distinctBy: String?
        package var relatedTable: String?
        package var related: [RelatedGroup]?
        package var relatedBy: String?
        package var attachments: [AttachmentGroup]?
        package var attachmentsBy: String?
        package var error: ErrorBody?
        /// Where a stored layer's features or ids are (contract 1.3), instead of `features` or `objectIds`.
        package var location: Location?

        /// How many ids (or catalog entries, statistics or distinct rows) the entry holds, whichever it has.
        package var itemCount: Int {
            objectIds?.count ?? featureIds?.count ?? catalog?.count ?? statistics?.count ?? distinct?.count ?? 0
        }

        /// Appends a later part's slices of this layer.
        package mutating func append(_ slice: Layer) {
            if let ids = slice.objectIds { objectIds = (objectIds ?? []) + ids }
            if let ids = slice.featureIds { featureIds = (featureIds ?? []) + ids }
            if let entries = slice.catalog { catalog = (catalog ?? []) + entries }
            if let rows = slice.statistics { statistics = (statistics ?? []) + rows }
            if let rows = slice.distinct { distinct = (distinct ?? []) + rows }
            if let groups = slice.related { related = RelatedGroup.continued(related ?? [], groups) }
            if let groups = slice.attachments { attachments = AttachmentGroup.continued(attachments ?? [], groups) }
        }
    }

    /// An OGC feature id as the server gave it: `1` and `"1"` differ.
    package enum FeatureIdentifier: Sendable, Hashable, Decodable, CustomStringConvertible {
        case integer(Int64)
        case string(String)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                self = .integer(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        /// `17`, or `"a-17"` quoted so that a string id never reads as a number.
        package var description: String {
            switch self {
            case .integer(let number): String(number)
            case .string(let text): "\"\(text)\""
            }
        }
    }

    /// One entry of a catalog: a collection of an OGC landing page or a layer of an ArcGIS service.
    package struct CatalogItem: Sendable, Decodable {
        package var id: String
        package var title: String?
        package var url: String?
        package var itemType: String?
        package var geometryType: String?
        package var queryable: Bool?
        package var filterLanguages: [String]?
    }

    /// The contract's `error` object.
    package struct ErrorBody: Sendable, Decodable {
        package var code: String
        package var message: String
        package var retryable: Bool?
    }

    /// Results are `succeeded` or `partial`; every other status comes on the errors topic.
    package var isResult: Bool { status == "succeeded" || status == "partial" }

    /// The whole outcome from the messages of one run of one request, in part order (one for an error or a
    /// result that fit in a message). Follows the contract's reassembly: the envelope of part 1, and each
    /// layer's `objectIds`, `featureIds`, `catalog`, `statistics` and `distinct` slices appended in part order,
    /// matched by `url`, and its `related` and `attachments` groups (a group continued across parts joined).
    package init(parts: [[UInt8]]) throws {
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
                    layers[position].append(entry)
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
package struct OutcomeDecodingError: Error, CustomStringConvertible {
    package var message: String
    package init(message: String) { self.message = message }
    package var description: String { message }
}
