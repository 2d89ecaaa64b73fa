public import Foundation
import QueryOutcomes

extension QueryOutcome {
    /// The public view of a reassembled outcome (QueryOutcomes' ``Outcome`` is the one reader of the contract's
    /// outcome JSON, shared with `query-worker query`).
    init(_ completed: OutcomeCollector.Completed) throws(FeatureQueryError) {
        let outcome = completed.outcome
        guard let requestId = outcome.requestId, let status = Status(rawValue: outcome.status) else {
            throw FeatureQueryError(
                .malformedOutcome, "an outcome with status \(outcome.status) and requestId \(outcome.requestId ?? "none")")
        }
        let collections = Self.featureCollections(completed.parts)
        var layers: [LayerResult] = []
        for layer in outcome.layers ?? [] { layers.append(try LayerResult(layer)) }
        for index in layers.indices { layers[index].featureCollection = collections[layers[index].url] }
        self.init(
            requestId: requestId, taskId: outcome.taskId, status: status, layers: layers, error: outcome.error.map(FeatureQueryError.init),
            supersededBy: outcome.supersededBy, worker: outcome.worker, messages: completed.parts.map { Data($0) })
    }
}

extension QueryOutcome {
    /// An outcome read from its messages as published, in any order (a split result's parts put back together):
    /// for a service that reads the results topic itself, and for tests. Throws
    /// ``FeatureQueryError/Code/malformedOutcome`` for messages that are not one whole outcome of the contract.
    public init(messages: [Data]) throws(FeatureQueryError) {
        var collector = OutcomeCollector(wanted: nil)
        var completed: OutcomeCollector.Completed?
        do {
            for message in messages where completed == nil { completed = try collector.add(Array(message)) }
        } catch {
            throw FeatureQueryError(.malformedOutcome, "the outcome could not be read: \(error)")
        }
        guard let completed else {
            throw FeatureQueryError(.malformedOutcome, "the messages are not one whole outcome (a part is missing, or none names its request)")
        }
        try self.init(completed)
    }
}

extension FeatureQueryError {
    /// The worker's `error` object: its code and retryability as published.
    init(_ body: Outcome.ErrorBody) {
        self.init(.init(rawValue: body.code), body.message, isRetryable: body.retryable ?? false)
    }
}

extension QueryOutcome.LayerResult {
    init(_ layer: Outcome.Layer) throws(FeatureQueryError) {
        url = layer.url
        layerId = layer.layerId
        collection = layer.collection
        name = layer.name
        succeeded = layer.status == "succeeded"
        count = layer.count
        complete = layer.complete
        incompleteReason = layer.incompleteReason
        objectIds = layer.objectIds
        featureIds = layer.featureIds?.compactMap { $0.map(Query.FeatureID.init) }
        statistics = layer.statistics?.map { QueryOutcome.StatisticsRow(group: .init($0.group), values: .init($0.values)) }
        extent = layer.extent.map {
            Query.Extent(xmin: $0.xmin, ymin: $0.ymin, xmax: $0.xmax, ymax: $0.ymax, wkid: $0.spatialReference?.wkid ?? 4326)
        }
        distinct = layer.distinct?.map { [String: QueryOutcome.FieldValue]($0) }
        related = layer.related?.map { group in
            QueryOutcome.RelatedRecords(
                objectId: group.objectId, count: group.count,
                records: group.records.map { record in record.attributes.map { .init($0) } ?? [:] })
        }
        attachments = layer.attachments?.map { group in
            QueryOutcome.Attachments(
                objectId: group.objectId,
                attachments: group.attachments.map {
                    QueryOutcome.Attachment(id: $0.id, name: $0.name, contentType: $0.contentType, size: $0.size, url: $0.url)
                })
        }
        error = layer.error.map(FeatureQueryError.init)
        featureCollection = nil
        location = try layer.location.map { location throws(FeatureQueryError) in try StoredResultLocation(location, layer: layer.url) }
    }
}

extension Query.FeatureID {
    init(_ identifier: Outcome.FeatureIdentifier) {
        switch identifier {
        case .integer(let value): self = .integer(value)
        case .string(let value): self = .string(value)
        }
    }
}

extension Dictionary where Key == String, Value == QueryOutcome.FieldValue {
    init(_ values: Outcome.FieldValues) {
        self.init(values.pairs.map { ($0.name, QueryOutcome.FieldValue($0.value)) }, uniquingKeysWith: { _, last in last })
    }
}

extension QueryOutcome.FieldValue {
    init(_ value: Outcome.FieldValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .bool(let flag): self = .bool(flag)
        }
    }
}
