import EngineExecution
import FeatureQuerySupport
import FeatureService
import QueryLanguage

/// One request of a related read, and what it answers.
enum RelatedStep: Sendable {
    /// `queryRelatedRecords` for these origins, from `offset` (services that page related records only).
    case group(chunk: Int, origins: [Int64], offset: Int)
    /// `returnCountOnly` for these origins (services with `supportsAdvancedQueryRelated`): the check.
    case counts(chunk: Int, origins: [Int64])
    /// One origin whose records pass the transfer limit on their own: its key, then the related table's ids
    /// with that key (ids are not bound by the transfer limit).
    case keyIds(chunk: Int, origin: Int64)
    /// The related table's records by id, for one origin.
    case records(chunk: Int, origin: Int64, ids: [Int64])

    var chunk: Int {
        switch self {
        case .group(let chunk, _, _), .counts(let chunk, _), .keyIds(let chunk, _), .records(let chunk, _, _): chunk
        }
    }
}

enum RelatedAnswer: Sendable {
    case group(EncodedRelatedPage)
    case counts([Int64: Int])
    case keyIds([Int64])
    case records(EncodedRelatedPage)
}

/// Builds and sends the requests of a related read (``RelatedStep``), each a POST: the id lists grow with
/// the selection. Sendable, so the steps run in child tasks.
struct RelatedRequests: Sendable {
    let target: RelatedTarget
    let layer: LayerMetadata
    let session: ArcGISSession
    let origin: String
    let counter: RequestCounter
    let encoder: RelatedRecordEncoder

    init(target: RelatedTarget, layer: LayerMetadata, session: ArcGISSession, origin: String, counter: RequestCounter) {
        self.target = target
        self.layer = layer
        self.session = session
        self.origin = origin
        self.counter = counter
        encoder = RelatedRecordEncoder(target: target)
    }

    var relatedEndpoint: String { layer.url + "/queryRelatedRecords" }
    var capabilities: LayerQueryCapabilities { layer.queryCapabilities }

    func answer(_ step: RelatedStep) async throws -> RelatedAnswer {
        switch step {
        case .group(_, let origins, let offset):
            let parameters = try groupParameters(origins, offset: offset)
            let encoder = encoder
            return .group(
                try await session.fetch(relatedEndpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                    body throws(FeatureServiceError) in
                    try EncodedRelatedPage(try ArcGISResponse.relatedRecords(body, layer: layer.url), encoder: encoder)
                })
        case .counts(_, let origins):
            var parameters = try common(origins)
            parameters.append("returnCountOnly", "true")
            return .counts(
                try await session.fetch(relatedEndpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                    body throws(FeatureServiceError) in try ArcGISResponse.relatedCounts(body, layer: layer.url)
                })
        case .keyIds(_, let originId):
            return .keyIds(try await keyIds(originId))
        case .records(_, let originId, let ids):
            var parameters = QueryParameters(fields: [
                ("f", "json"), ("objectIds", ids.map(String.init).joined(separator: ",")),
                ("outFields", target.requestedFields.joined(separator: ",")),
                ("returnGeometry", target.returnsGeometry ? "true" : "false"),
            ])
            if target.returnsGeometry { parameters.append("outSR", "4326") }
            parameters.alwaysPOST = true
            let (table, encoder) = (target.table, encoder)
            return .records(
                try await session.fetch(table.queryEndpoint, origin: origin, parameters: parameters, layer: table.url, counter: counter) {
                    body throws(FeatureServiceError) in
                    try EncodedRelatedPage(
                        try ArcGISResponse.attributePage(body, layer: table.url, geometry: target.returnsGeometry), origin: originId,
                        encoder: encoder)
                })
        }
    }

    /// The fields every `queryRelatedRecords` request of the read carries.
    private func common(_ origins: [Int64]) throws(FeatureServiceError) -> QueryParameters {
        var parameters = QueryParameters(fields: [
            ("f", "json"), ("objectIds", origins.map(String.init).joined(separator: ",")),
            ("relationshipId", String(target.relationship.id)),
        ])
        if let encoded = target.clause.encoded {
            parameters.appendEncoded("definitionExpression", encodedValue: encoded)
        } else if let clause = target.clause.validated {
            parameters.append("definitionExpression", try QueryParameters.sentSQL(of: clause, layer: target.table))
        }
        parameters.alwaysPOST = true
        return parameters
    }

    /// A records request: the output fields, geometry in WGS 84 when asked, the related order where the
    /// service orders related records (ties by object id, which also keeps pages stable), and a page where it
    /// pages them.
    private func groupParameters(_ origins: [Int64], offset: Int) throws(FeatureServiceError) -> QueryParameters {
        var parameters = try common(origins)
        parameters.append("outFields", target.requestedFields.joined(separator: ","))
        parameters.append("returnGeometry", target.returnsGeometry ? "true" : "false")
        if target.returnsGeometry { parameters.append("outSR", "4326") }
        if capabilities.advancedQueryRelated {
            let terms = target.orderBy.map { "\($0.field) \($0.descending ? "DESC" : "ASC")" }
            parameters.append("orderByFields", (terms + ["\(target.table.objectIdField) ASC"]).joined(separator: ","))
        }
        if capabilities.queryRelatedPagination {
            parameters.append("resultOffset", String(offset))
            parameters.append("resultRecordCount", String(target.table.maxRecordCount))
        }
        return parameters
    }

    /// The related table's ids whose key equals the origin's: the origin's key value read first (one
    /// feature, one field), then `key = value AND (relatedWhere)` asked for ids.
    private func keyIds(_ originId: Int64) async throws -> [Int64] {
        guard let originKey = target.relationship.keyField, let relatedKey = target.relatedKeyField else {
            throw FeatureServiceError(
                .limitExceeded,
                "origin \(originId) of \(layer.url) has more related records than \(target.table.url) returns at once, "
                    + "and the relationship does not name both key fields, so the rest cannot be read by key",
                layer: layer.url)
        }
        let keyParameters = QueryParameters(fields: [
            ("f", "json"), ("objectIds", String(originId)), ("outFields", originKey), ("returnGeometry", "false"),
        ])
        let rows = try await session.fetch(layer.queryEndpoint, origin: origin, parameters: keyParameters, layer: layer.url, counter: counter) {
            body throws(FeatureServiceError) in try ArcGISResponse.attributePage(body, layer: layer.url)
        }
        guard let row = rows.rows.first,
            let literal = Self.literal(row[originKey] ?? row.first { $0.key.caseInsensitiveEquals(originKey) }?.value)
        else { return [] }
        var text = "\(relatedKey) = \(literal)"
        if let related = target.clause.validated { text += " AND (\(related.description))" }
        let table = target.table
        let clause: WhereClause
        do throws(QueryLanguageError) { clause = try WhereClause(text) } catch {
            throw FeatureServiceError(.invalidQuery, "the key clause for \(table.url) cannot be built: \(error.message)", layer: table.url)
        }
        let query = ServiceQuery(whereClause: clause)
        let checked = try QueryCheck.check(query, for: table)
        var parameters = QueryParameters.idsOnly(try QueryParameters.base(query, clause: checked, layer: table))
        parameters.alwaysPOST = true
        let page = try await session.fetch(table.queryEndpoint, origin: origin, parameters: parameters, layer: table.url, counter: counter) {
            body throws(FeatureServiceError) in try ArcGISResponse.objectIDs(body, layer: table.url)
        }
        return page.objectIds.sortedUnique().ids
    }

    /// A key value as an SQL literal: a string quoted (quotes doubled), a number as it is; nil for null.
    static func literal(_ value: ParsedJSON?) -> String? {
        switch value {
        case .string(let text)?: "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .number(let number)?:
            Int64(exactly: number).map(String.init) ?? String(number)
        default: nil
        }
    }
}
