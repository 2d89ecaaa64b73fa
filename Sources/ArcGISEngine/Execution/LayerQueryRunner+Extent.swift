import EngineExecution
import FeatureGeometry
import FeatureService
import QueryLanguage

extension LayerQueryRunner {
    /// `result: extent`: `returnExtentOnly` with `returnCountOnly` where the layer says
    /// `supportsReturningQueryExtent`, else the worker's box over the selection's geometries.
    func runExtent(_ base: QueryParameters) async throws -> ServiceLayerResult {
        if layer.queryCapabilities.queryExtent {
            var parameters = base
            parameters.append("returnExtentOnly", "true")
            parameters.append("returnCountOnly", "true")
            if let out = query.outSpatialReference { parameters.append("outSR", String(out.wkid)) }
            let layer = layer
            let (count, extent) = try await transport.fetch(
                endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter
            ) { body throws(FeatureServiceError) in try ArcGISResponse.countAndExtent(body, layer: layer.url) }
            var box = extent
            if box?.spatialReference == nil { box?.spatialReference = query.outSpatialReference ?? layer.spatialReference }
            return aggregated(count: count, selection: .extent(box), by: .server, orderedBy: nil)
        }
        guard layer.geometryType != nil else {
            throw FeatureServiceError(.invalidQuery, "\(layer.url) (\(layer.name)) is a table; it has no extent", layer: layer.url)
        }
        var sink = ExtentSink(extent: ExtentAccumulator(spatialReference: query.outSpatialReference ?? layer.spatialReference), layer: layer.url)
        let read = try await readRecords(base, columns: columns([]), geometry: true, into: &sink)
        return aggregated(count: read, selection: .extent(sink.extent.extent), by: .worker, orderedBy: nil)
    }
}

/// The worker's extent as a ``RecordSink``: each page's Esri geometries decoded and their boxes merged.
struct ExtentSink: RecordSink {
    private(set) var extent: ExtentAccumulator
    private let initial: ExtentAccumulator
    private let layer: String

    init(extent: ExtentAccumulator, layer: String) {
        self.extent = extent
        self.initial = extent
        self.layer = layer
    }

    mutating func add(_ records: [[AttributeValue]], page: AttributePage) throws {
        for geometry in page.geometries {
            guard let geometry else {
                extent.add(nil)
                continue
            }
            do {
                extent.add(geometry: try EsriJSON.decode(geometry, defaultSpatialReference: page.spatialReference))
            } catch let error as GeometryError where error.code == .emptyGeometry {
                extent.add(nil)
            } catch {
                throw FeatureServiceError(
                    .malformedResponse, "The response from \(layer) holds a geometry that cannot be read: \(error)", layer: layer)
            }
        }
    }

    mutating func reset() throws {
        extent = initial
    }
}
