import ArgumentParser
import FeatureQueryClient
import FeatureQuerySupport
import Foundation

/// `query`'s flags for the request's own fields: one flag per field of the contract's request
/// (docs/contract/README.md), so anything a producer can ask a worker can be asked from a shell.
struct RequestOptions: ParsableArguments {
    @Option(
        name: .customLong("target"),
        help: ArgumentHelp(
            "An ArcGIS layer (…/FeatureServer/0) or service (…/MapServer) URL, or ogc: and an OGC API Features "
                + "landing page URL (ogc:https://host/api). Repeatable; results follow this order.",
            valueName: "url"),
        transform: TargetArgument.parse)
    var targets: [TargetArgument] = []

    @Option(
        help: ArgumentHelp("Sublayers of the ArcGIS service targets, e.g. 0,2,3 (default: every layer).", valueName: "ids"),
        transform: LayerList.parse)
    var layers: LayerList?

    @Option(
        name: .customLong("collection"),
        help: ArgumentHelp(
            "A collection of the ogc: targets (each ogc: target queries each --collection). Repeatable. Required "
                + "for ogc: targets except with --result catalog, where a landing page alone lists its collections.",
            valueName: "id"))
    var collections: [String] = []

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp("An ArcGIS SQL where clause, e.g. \"UseType = 'Residential'\" (OGC too).", valueName: "clause"))
    var whereClause: String?

    @Option(help: "A named query of the worker instead of --where (built in: government, residential, farm, taxRate10853, …).")
    var namedWhere: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The spatial filter as a box: xmin,ymin,xmax,ymax[,wkid] (wkid default 4326, so degrees).",
            valueName: "box"),
        transform: ExtentArgument.parse)
    var extent: ExtentArgument?

    @Option(
        help: ArgumentHelp(
            "The spatial filter as a GeoJSON or Esri JSON geometry, or @file to read it from a file. Not with --extent.",
            valueName: "json"),
        transform: GeometryArgument.parse)
    var geometry: GeometryArgument?

    @Option(help: "How --extent or --geometry selects: intersects (default), contains, within, envelopeIntersects.")
    var spatialRelationship: SpatialRelationshipArgument?

    @Option(
        help: ArgumentHelp("Fields returned with features, e.g. APN,UseType (default: all).", valueName: "fields"),
        transform: FieldList.parse)
    var outFields: FieldList?

    @Flag(inversion: .prefixedNo, help: "Whether features carry their geometry (the contract's default: no).")
    var returnGeometry: Bool?

    @Option(name: .customLong("out-sr"), help: ArgumentHelp("outSpatialReference: the wkid to query features in.", valueName: "wkid"))
    var outSpatialReference: Int?

    @Option(help: "At most this many ids or features per layer (default: all).")
    var maxFeatures: Int?

    @Option(
        help: ArgumentHelp(
            "What each target returns: ids (default), count, features (GeoJSON), catalog (what it offers to query), "
                + "statistics (with --statistic), extent, distinct (the distinct combinations of --out-fields), related "
                + "(the records related through --relationship), or attachments (each feature's attachments)."))
    var result: ResultKindArgument?

    @Option(help: "The supersession key: a newer request with the same taskId replaces this one (default: the requestId).")
    var taskId: String?

    @Option(help: "The request's id (default: a new UUID). With --wait, use a new one each time: an outcome for the same id from the last 30 s would be taken for this request's.")
    var requestId: String?

    @Option(help: ArgumentHelp("The request's deadline after a worker receives it, e.g. 15s, 500ms, 2m (default: the worker's).", valueName: "duration"))
    var timeout: DurationArgument?

    @Option(help: "The same in milliseconds (the contract's timeoutMs).")
    var timeoutMs: Int?

    @Option(help: ArgumentHelp("The request's deadline as an RFC 3339 date-time with a zone, e.g. 2025-06-01T12:05:00Z.", valueName: "date-time"))
    var deadline: String?

    @Option(help: ArgumentHelp("The name of a credential in the worker's credentials file; its scopes must cover every target (otherwise credentials apply by scope).", valueName: "name"))
    var credential: String?

    func validate() throws {
        guard !targets.isEmpty else {
            throw ValidationError("name at least one layer, service or ogc: landing page to query with --target URL")
        }
        if whereClause != nil, namedWhere != nil {
            throw ValidationError("--where and --named-where exclude each other: give one (or neither, for every feature)")
        }
        if extent != nil, geometry != nil {
            throw ValidationError("--extent and --geometry exclude each other: both are the spatial filter")
        }
        if [timeout != nil, timeoutMs != nil, deadline != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --timeout, --timeout-ms and --deadline")
        }
        if let timeoutMs, timeoutMs < 1 { throw ValidationError("--timeout-ms must be at least 1") }
        if let maxFeatures, maxFeatures < 1 { throw ValidationError("--max-features must be at least 1") }
        if layers != nil, !targets.contains(where: \.isArcGISService) {
            throw ValidationError(
                "--layers picks sublayers of a service URL (…/MapServer or …/FeatureServer); no --target is one")
        }
        let hasOGC = targets.contains { $0.kind == .ogc }
        if !collections.isEmpty, !hasOGC {
            throw ValidationError("--collection picks collections of ogc: targets; no --target starts with ogc:")
        }
        if hasOGC, collections.isEmpty, result != .catalog {
            throw ValidationError(
                "an ogc: target needs --collection ID (or --result catalog, to list the landing page's collections)")
        }
        if Set(collections).count != collections.count { throw ValidationError("a --collection is named twice") }
    }

    /// The job these flags (and `table`'s and `related`'s) describe, as the client library types it; the worker's
    /// decoder checks it before it is published.
    func job(table: TableOptions? = nil, related: RelatedOptions? = nil) throws -> QueryJob {
        var targets: [QueryJob.Target] = []
        for target in self.targets {
            switch target.kind {
            case .arcgis:
                targets.append(.arcgis(url: target.url, layers: target.isArcGISService ? layers?.ids : nil))
            case .ogc where collections.isEmpty:
                targets.append(.ogc(landingPage: target.url, collection: nil))
            case .ogc:
                for collection in collections { targets.append(.ogc(landingPage: target.url, collection: collection)) }
            }
        }
        var query = Query(
            where: whereClause, namedWhere: namedWhere, extent: extent.map(Query.Extent.init),
            geometry: geometry.map(\.text), spatialRelationship: spatialRelationship.map { Query.SpatialRelationship(rawValue: $0.rawValue) } ?? nil,
            outFields: outFields?.names, returnGeometry: returnGeometry, outSpatialReference: outSpatialReference,
            maxFeatures: maxFeatures, result: result.map { Query.ResultKind(rawValue: $0.rawValue) } ?? nil)
        table?.apply(to: &query)
        related?.apply(to: &query)
        return QueryJob(
            taskId: taskId, requestId: requestId ?? UUID().uuidString.lowercased(), deadline: try deadlineDate(),
            timeout: timeoutMs.map { .milliseconds($0) } ?? timeout?.duration, targets: targets, query: query,
            credential: credential)
    }

    /// `--deadline` as an instant: RFC 3339 with a zone, as the contract's `deadline`.
    private func deadlineDate() throws -> Date? {
        guard let deadline else { return nil }
        guard let milliseconds = RFC3339.milliseconds(from: deadline) else {
            throw ValidationError("--deadline \(deadline) is not an RFC 3339 date-time with a zone, e.g. 2025-06-01T12:05:00Z")
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

extension Query.Extent {
    /// `--extent`'s box.
    init(_ argument: ExtentArgument) {
        self.init(xmin: argument.xmin, ymin: argument.ymin, xmax: argument.xmax, ymax: argument.ymax, wkid: argument.wkid)
    }
}
