import EngineExecution
import FeatureGeometry
import FeatureQuerySupport
import FeatureService

/// Tiles: a large collection's `next` sequence split into spatial tiles fetched at once.
extension CollectionQueryRunner {
    /// The tiling when the first page shows a collection worth tiling, else nil: `numberMatched` known and
    /// above ``OGCEngineConfiguration/tileWhenPagesExceed`` pages, every feature so far with an id, no
    /// `maxFeatures` cut to keep in order, and a query box or a collection extent to cut. Tiles per side grow
    /// with the pages (about two pages a tile), up to ``OGCEngineConfiguration/tilesPerSide``.
    func tiling(_ box: [Double]?, firstPage: ItemPage, matched: Int, collector: CheckedItemCollector) -> Tiling? {
        guard let pages = configuration.tileWhenPagesExceed, configuration.tilesPerSide > 1, query.result != .count,
            !firstPage.features.isEmpty, matched > pages * firstPage.features.count, collector.allHadIds,
            query.maxFeatures.map({ $0 >= matched }) ?? true, box != nil || collection.extent != nil
        else { return nil }
        let pagesInAll = (matched + firstPage.features.count - 1) / firstPage.features.count
        let side = Int((Double(pagesInAll) / 2).squareRoot().rounded(.up))
        return Tiling(region: box ?? [-180, -90, 180, 90], perSide: min(configuration.tilesPerSide, max(2, side)))
    }

    /// Fetches the tiles of `region` at once (each its own `next` sequence, the per-host limit bounding
    /// them) and adds their pages to `collector` as they arrive, so no tile's features wait in memory for
    /// another's; features already held (by id) count once, and one without id is taken from the first tile
    /// whose box its geometry intersects (``TilePlanner/owns(_:of:geometry:)``). The first failing tile fails
    /// the layer (the others are cancelled).
    func runTiles(
        _ tiling: Tiling, filter: FilterPlan, extra: [QueryParameter], pageLimit: Int, into collector: inout CheckedItemCollector,
        stream: inout StoredLayerStream
    ) async throws {
        let tiles = TilePlanner.tiles(region: tiling.region, extent: collection.extent, perSide: tiling.perSide)
        let pager = ItemPager(
            transport: transport, layer: layer, origin: service.origin,
            maxConsecutiveEmptyPages: configuration.maxConsecutiveEmptyPages, progress: progress, reportsTotal: false)
        let itemsURL = collection.itemsURL
        let fallbackLimit = configuration.fallbackPageLimit
        let server = filter.server
        let (events, continuation) = AsyncThrowingStream.makeStream(of: TileEvent.self)
        // A stored collection's runner waits for the store: tiles then hold their pages (one each) instead of
        // queueing every page they can read.
        let credits = PageCredits(limit: stream.hasStore ? tiles.count : nil)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, tile) in tiles.enumerated() {
                group.addTask {
                    let first = ItemsURL.build(itemsURL, limit: pageLimit, box: tile, filter: server, extra: extra)
                    let fallback = pageLimit > fallbackLimit
                        ? ItemsURL.build(itemsURL, limit: fallbackLimit, box: tile, filter: server, extra: extra) : nil
                    do {
                        try await pager.run(first: first, fallback: fallback) { page in
                            await credits.acquire()
                            continuation.yield(.page(index, page.features))
                            return .more
                        }
                        continuation.yield(.done)
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
            }
            var finished = 0
            for try await event in events {
                switch event {
                case .page(let index, let features):
                    let accept: (Geometry?) -> Bool = { TilePlanner.owns(index, of: tiles, geometry: $0) }
                    // The untiled first page is sequence 0, tile `index` is sequence `index + 1`.
                    let heldBefore = collector.heldCount
                    let more = collector.add(features, box: tiles[index], sequence: index + 1, accept: accept)
                    try await absorb(&collector, from: heldBefore, stream: &stream)
                    credits.release()
                    guard more else {
                        group.cancelAll()
                        continuation.finish()
                        return
                    }
                case .done:
                    finished += 1
                    if finished == tiles.count { continuation.finish() }
                }
            }
            // A cancelled caller ends the stream's iteration without an error: without this check the tiles
            // read so far would be answered as a (partial) success instead of `cancelled`.
            try Task.checkCancellation()
        }
    }
}

/// How a collection is tiled: the region the tiles cover, and how many tiles per side.
struct Tiling: Sendable {
    var region: [Double]
    var perSide: Int
}

/// What a tile's task reports to the runner.
private enum TileEvent: Sendable {
    /// A page's features from tile `index`.
    case page(Int, [RawFeature])
    /// The tile's pages are all read.
    case done
}
