package import FeatureService

/// The ArcGIS engine behind the worker's seam: it queries `arcgis` targets and answers in the seam's types.
///
/// The adapter lives in this module rather than in one of its own: it needs the engine's fan-out with a shared
/// ``ResultBudget`` (internal), and every engine that joins the seam depends on the seam's vocabulary the same
/// way, so the router can hand one budget to all of them. The seam is this package's own (`package`), so the
/// conformance and the mappings below are too: an embedder of the engine sees none of them.
extension ArcGISEngine: FeatureServiceEngine {
    package var kinds: Set<ServiceKind> { [.arcgis] }

    package func query(_ targets: [ServiceTarget], _ query: ServiceQuery, budget: ResultBudget) async -> [[ServiceLayerOutcome]] {
        if query.result == .catalog { return await catalogs(of: targets, credential: query.credential) }
        let featureQuery = FeatureQuery(query)
        // The layer bound counts every target's layers together, so it is checked before the fan-out.
        let parsed = targets.map { ArcGISTarget.from($0) }
        let arcgisTargets = parsed.compactMap { try? $0.get() }
        if mayExceedLayerLimit(arcgisTargets),
            let refusal = await refusalOverLayerLimit(arcgisTargets, credential: query.credential)
        {
            // One refusal per target that parsed, in order; a target that did not keeps its own error.
            var refusals = refusal.map(ServiceLayerOutcome.init).makeIterator()
            return zip(targets, parsed).map { target, parsed in
                switch parsed {
                case .failure(let error): [ServiceLayerOutcome(url: target.url, result: .failure(error))]
                case .success: refusals.next().map { [$0] } ?? []
                }
            }
        }
        // One target (the usual request) in this task, from the target parsed above: no closure for the fan-out.
        if targets.count == 1 { return [await outcomes(of: targets[0], parsed[0], featureQuery, budget: budget)] }
        return await TargetFanOut.outcomes(of: targets) { target in
            await self.outcomes(of: target, ArcGISTarget.from(target), featureQuery, budget: budget)
        }
    }

    /// The outcomes of one seam target, `parsed` as the ArcGIS target it names (or why it names none).
    private func outcomes(
        of target: ServiceTarget, _ parsed: Result<ArcGISTarget, FeatureServiceError>, _ query: FeatureQuery,
        budget: ResultBudget
    ) async -> [ServiceLayerOutcome] {
        switch parsed {
        case .success(let arcgis): await queryTarget(arcgis, query, budget: budget).map(ServiceLayerOutcome.init)
        case .failure(let error): [ServiceLayerOutcome(url: target.url, result: .failure(error))]
        }
    }
}

extension ArcGISEngine {
    /// `result: catalog`: one outcome per target, listing its layers.
    private func catalogs(of targets: [ServiceTarget], credential: String?) async -> [[ServiceLayerOutcome]] {
        await TargetFanOut.outcomes(of: targets) { target in
            let arcgis: ArcGISTarget
            switch ArcGISTarget.from(target) {
            case .success(let parsed): arcgis = parsed
            case .failure(let error): return [ServiceLayerOutcome(url: target.url, result: .failure(error))]
            }
            let result: Result<ServiceLayerResult, FeatureServiceError>
            do throws(ArcGISError) {
                let entries = try await self.catalog(of: arcgis, credential: credential)
                result = .success(ServiceLayerResult(
                    url: target.url, count: entries.count, isComplete: true, selection: .catalog(entries)))
            } catch {
                result = .failure(FeatureServiceError(error))
            }
            return [ServiceLayerOutcome(url: target.url, result: result)]
        }
    }
}

extension ArcGISTarget {
    /// The ArcGIS target a seam target names: its kind must be `arcgis` and its layers sublayer ids.
    static func from(_ target: ServiceTarget) -> Result<ArcGISTarget, FeatureServiceError> {
        guard target.kind == .arcgis else { return .failure(.unsupported(target)) }
        guard let names = target.layers else { return .success(ArcGISTarget(url: target.url)) }
        var ids: [Int] = []
        for name in names {
            guard let id = Int(name) else {
                return .failure(FeatureServiceError(
                    .init(ArcGISError.Code.invalidURL.rawValue),
                    "\(target.url): layer \"\(name)\" is not an ArcGIS sublayer id (a whole number)", layer: target.url))
            }
            ids.append(id)
        }
        return .success(ArcGISTarget(url: target.url, layers: ids))
    }
}

extension FeatureQuery {
    /// The engine's query for the seam's: the same filters and limits, features handed back as GeoJSON (the
    /// form results carry).
    package init(_ query: ServiceQuery) {
        let kind: ResultKind = switch query.result {
        case .ids: .ids
        case .count: .count
        case .features: .features
        // A catalog lists layers instead of querying them (``ArcGISEngine/catalog(of:)``); never run as a query.
        case .catalog: .count
        }
        self.init(
            whereClause: query.whereClause, geometry: query.geometry, spatialRelationship: query.spatialRelationship,
            outFields: query.outFields, returnGeometry: query.returnGeometry,
            outSpatialReference: query.outSpatialReference, maxFeatures: query.maxFeatures, result: kind,
            featureOutput: .geoJSON)
        credential = query.credential
    }
}

extension FeatureServiceError {
    /// The seam's view of an engine error: the same code, message, layer and facts.
    package init(_ error: ArcGISError) {
        self.init(
            Code(error.code.rawValue), error.message, layer: error.layer, isRetryable: error.isRetryable,
            httpStatus: error.httpStatus, serviceCode: error.serviceCode, details: error.details,
            retryAfter: error.retryAfter)
    }
}

extension ServiceLayerOutcome {
    /// One layer's engine outcome as the seam's: the engine's selection case becomes the seam's. Structured
    /// features (not what the seam asks for, but what ``FeatureQuery`` allows) are written as GeoJSON here; a
    /// feature that cannot be fails the layer.
    package init(_ outcome: LayerOutcome) {
        let result: LayerQueryResult
        switch outcome.result {
        case .failure(let error):
            self.init(url: outcome.url, result: .failure(FeatureServiceError(error)))
            return
        case .success(let value):
            result = value
        }
        let selection: LayerSelection
        switch result.selection {
        case .countOnly:
            selection = .countOnly
        case .objectIds(let ids):
            selection = .objectIds(ids)
        case .geoJSON(let features):
            selection = .features(GeoJSONFeatureList(features))
        case .features(let features, let fieldOrder, _):
            do {
                selection = .features(try GeoJSONFeatureList(features, fieldOrder: fieldOrder, layer: result.url))
            } catch {
                self.init(url: result.url, result: .failure(FeatureServiceError(error)))
                return
            }
        }
        self.init(url: result.url, result: .success(ServiceLayerResult(
            url: result.url, layerId: result.layerId, name: result.name, objectIdField: result.objectIdField,
            count: result.count, isComplete: result.isComplete, selection: selection,
            incompleteReason: result.completeness.incompleteReason)))
    }
}

extension GeoJSONFeatureList {
    /// The engine's GeoJSON output of a layer: slices of its pages, not copies.
    package init(_ features: GeoJSONFeatures) {
        var ids: [Int64] = []
        var json: [ArraySlice<UInt8>] = []
        ids.reserveCapacity(features.count)
        json.reserveCapacity(features.count)
        features.forEachFeature { id, bytes in
            ids.append(id)
            json.append(bytes)
        }
        self.init(objectIds: ids, json: json)
    }

    /// Structured features, written as GeoJSON now (``FeatureGeoJSON``). Throws when a geometry cannot be
    /// written as GeoJSON (a spatial reference other than WGS 84 or Web Mercator).
    package init(_ features: [Feature], fieldOrder: [String], layer: String) throws(ArcGISError) {
        var ids: [Int64] = []
        var json: [ArraySlice<UInt8>] = []
        for feature in features {
            var text = ""
            try FeatureGeoJSON.write(feature, fieldOrder: fieldOrder, layer: layer, to: &text)
            ids.append(feature.objectId)
            json.append(ArraySlice(text.utf8))
        }
        self.init(objectIds: ids, json: json)
    }
}

extension Completeness {
    /// Why the result is incomplete, in the seam's words: the budget first (it cuts below `maxFeatures`), then
    /// the limit, then rows the service lost while paging.
    var incompleteReason: IncompleteReason? {
        if isComplete { return nil }
        if truncatedByBudget { return .resultBudget }
        if truncatedByLimit { return .maxFeatures }
        return .rowsLost
    }
}
