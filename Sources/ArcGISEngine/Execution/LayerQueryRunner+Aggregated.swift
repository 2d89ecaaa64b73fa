import EngineExecution
import FeatureService
import Logging
import QueryLanguage

extension LayerQueryRunner {
    /// Every page of an aggregated answer (statistics groups, distinct values); nil when the worker must compute
    /// instead: the service failed the query it claims to support (an error body such as "Cannot complete
    /// operation"), or cut the rows at its record limit (`exceededTransferLimit`) on a layer without
    /// `supportsPaginationOnAggregatedQueries`, or its pages never ended. Never a silent cut.
    func aggregatedPages(_ parameters: QueryParameters, what: String) async throws -> [AttributePage]? {
        let (layer, transport) = (layer, transport)
        func fetch(_ parameters: QueryParameters) async throws -> AttributePage? {
            do {
                return try await transport.fetch(endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                    body throws(FeatureServiceError) in try ArcGISResponse.attributePage(body, layer: layer.url)
                }
            } catch let error as FeatureServiceError where error.code == .serviceError || error.code == .invalidQuery {
                transport.logger.warning(
                    "the service claims \(what) but failed them; the worker computes them",
                    metadata: ["layer": "\(layer.url)", "error": "\(error.message)"])
                return nil
            }
        }
        guard let first = try await fetch(parameters) else { return nil }
        progress?.pageRead(features: first.rows.count)
        guard first.exceededTransferLimit else { return [first] }
        guard layer.queryCapabilities.paginationOnAggregatedQueries else {
            transport.logger.notice(
                "the service cut \(what) at its record limit and cannot page them; the worker computes them",
                metadata: ["layer": "\(layer.url)", "rows": "\(first.rows.count)"])
            return nil
        }
        var pages = [first]
        var offset = first.rows.count
        // `exceededTransferLimit` may be set on a short page; paging ends on a page without it, and an empty
        // page that still sets it ends in the worker's own computation.
        while let last = pages.last, last.exceededTransferLimit {
            guard !last.rows.isEmpty, pages.count < 10_000 else { return nil }
            let page = parameters.adding([("resultOffset", String(offset)), ("resultRecordCount", String(layer.maxRecordCount))])
            guard let next = try await fetch(page) else { return nil }
            progress?.pageRead(features: next.rows.count)
            pages.append(next)
            offset += next.rows.count
        }
        return pages
    }

    /// An aggregated answer's rows in `terms`' order, and who ordered them: the service, when it was asked for
    /// the order (`serverOrdered`) and its rows hold it (checked pair by pair); else the worker, which sorts
    /// them (logging `outOfOrder` when the service's order broke). `orderedBy` is nil when the query named no
    /// order (`terms` are then the default: the group or distinct fields ascending).
    func inQueryOrder<Row>(
        _ rows: [Row], terms: [OrderTerm], serverOrdered: Bool, outOfOrder: Logger.Message,
        value: (Row, String) -> AttributeValue
    ) -> (rows: [Row], orderedBy: ComputationSite?) {
        let order = AttributeOrder(terms)
        let keys = rows.map { row in terms.map { value(row, $0.field) } }
        let named = !query.orderBy.isEmpty
        if serverOrdered {
            if order.isOrdered(keys) { return (rows, named ? .server : nil) }
            transport.logger.warning(outOfOrder, metadata: ["layer": "\(layer.url)", "orderBy": "\(Self.orderByFields(terms))"])
        }
        let sorted = zip(keys, rows).sorted { order.compare($0.0, $1.0) < 0 }.map(\.1)
        return (sorted, named ? .worker : nil)
    }
}
