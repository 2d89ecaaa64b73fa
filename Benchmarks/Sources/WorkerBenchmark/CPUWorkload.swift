/// One kind of query the CPU benchmark measures, with the requests it queues: `count` (one HTTP request per
/// query), `ids` (about 20,000 ids per query: returnIdsOnly and returnCountOnly) and `features` (100
/// features with geometry: returnCountOnly and one page of 100).
///
/// The selections are sized for the 200,000-parcel sample server (`--parcels 200000`, seed 1): measured
/// there, a 200 m envelope near the viewpoint holds a few dozen residential parcels, a 60 km one about
/// 20,000 (the parcels thin out away from the viewpoint), a 1.2 km one about 200 (cut to 100 by
/// `maxFeatures`). Every envelope is different (centres spread by a seeded generator), so no two queries
/// are the same query to the server.
struct CPUWorkload: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        case count, ids, features
    }

    let kind: Kind
    /// Requests queued per run.
    let requests: Int
    /// Outcomes left out of the rates at the start (joining, connections, metadata).
    let skip: Int
    /// A features request's `maxFeatures`: one page of the sample server's.
    static let maxFeatures = 100

    /// The workload of a kind with `requests` per run (the first tenth is left out of the rates).
    init(_ kind: Kind, requests: Int) {
        self.kind = kind
        self.requests = requests
        skip = max(1, requests / 10)
    }

    /// Per-kind defaults: ~10,000 count requests per run (the issue's figure); fewer of the heavy kinds so a
    /// run lasts seconds, not minutes, on one server CPU.
    static func defaultRequests(_ kind: Kind) -> Int {
        switch kind {
        case .count: 10_000
        case .ids: 1_000
        case .features: 3_000
        }
    }

    /// What one request asks for, for the table's heading.
    var summary: String {
        switch kind {
        case .count: "count, \(RequestFactory.whereClause) + a 200 m envelope"
        case .ids: "ids, \(RequestFactory.whereClause) + a 60 km envelope (~20,000 ids)"
        case .features: "features, \(RequestFactory.whereClause) + a 1.2 km envelope, maxFeatures 100, geometry"
        }
    }

    /// The request messages (key, JSON in the contract's format), ids prefixed with `run`, each on one of
    /// `layerURLs` in turn (several servers, for the scale-out benchmark).
    func messages(layerURLs: [String], run: String) -> [(key: String, value: String)] {
        let specs: [QuerySpec] = switch kind {
        case .count: RequestFactory.specs(count: requests)
        case .ids: RequestFactory.specs(count: requests, size: 60_000, spread: 2_000)
        case .features: RequestFactory.specs(count: requests, size: 1_200, spread: 500)
        }
        return specs.enumerated().map { index, spec in
            let id = "\(run)-\(index)"
            return (key: id, value: requestJSON(requestId: id, layerURL: layerURLs[index % layerURLs.count], spec))
        }
    }

    /// A request in the contract's format (docs/contract/examples/request-map-extent.json); features add
    /// `maxFeatures` and `returnGeometry`.
    func requestJSON(requestId: String, layerURL: String, _ spec: QuerySpec) -> String {
        let extra = kind == .features ? #","maxFeatures":\#(Self.maxFeatures),"returnGeometry":true"# : ""
        return #"{"requestId":"\#(requestId)","taskId":"\#(requestId)","targets":[{"type":"arcgis","url":"\#(layerURL)"}],"#
            + #""query":{"where":"\#(spec.whereClause)","extent":{"xmin":\#(spec.xmin),"ymin":\#(spec.ymin),"#
            + #""xmax":\#(spec.xmax),"ymax":\#(spec.ymax),"spatialReference":{"wkid":3857}},"result":"\#(kind.rawValue)"\#(extra)}}"#
    }
}
