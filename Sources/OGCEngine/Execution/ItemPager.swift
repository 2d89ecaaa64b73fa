import EngineExecution
import FeatureService
import Logging

/// Follows one sequence of items pages from a first URL along `next` links only, fetching the next page
/// while the caller handles the current one (the page's JSON is parsed and its link read in the fetching
/// task, so the link is known before the features are looked at).
///
/// Each link is checked before it is followed: a URL already fetched is a cycle (`paging_cycle`), another
/// origin than the landing page's is refused (`foreign_next_link`), and more than
/// ``OGCEngineConfiguration/maxConsecutiveEmptyPages`` empty pages in a row that still link on fail the
/// layer (`paging_stalled`). An empty page without `next` is simply the end (servers send a spurious `next`
/// to one on an exact last page). A 400 (or a 500 that outlasted its retries, or a body larger than the HTTP
/// client takes) to the first page is asked once more with the smaller `fallback` URL (servers refuse or break
/// on a large `limit`); no `offset` is made up.
///
/// `handle` may suspend (a page appended to the result store waits while the store is behind): at most the
/// next page is fetched meanwhile, so a streamed collection's memory is two pages, whatever its size.
struct ItemPager: Sendable {
    let transport: OGCSession
    let layer: String
    let origin: String
    let maxConsecutiveEmptyPages: Int
    /// Hears of each page read when the request asked for progress. `reportsTotal`: the pages' `numberMatched`
    /// is the layer's total (one sequence), not one tile's or one box's.
    var progress: LayerProgress? = nil
    var reportsTotal = true

    /// What the caller tells the pager after each page.
    enum Decision {
        case more
        case stop
    }

    func run(first: String, fallback: String?, handle: (ItemPage) async throws -> Decision) async throws {
        try await withThrowingTaskGroup(of: ItemPage.self) { group in
            var seen: Set<String> = [first]
            var emptyInARow = 0
            group.addTask { try await self.firstPage(first, fallback: fallback) }
            while let page = try await group.next() {
                seen.insert(page.url)
                progress?.pageRead(features: page.features.count, expected: reportsTotal ? page.numberMatched : nil)
                emptyInARow = page.features.isEmpty ? emptyInARow + 1 : 0
                var nextURL: String?
                if let next = page.next {
                    try check(next, seen: seen, emptyInARow: emptyInARow)
                    seen.insert(next)
                    nextURL = next
                    group.addTask { try await self.fetch(next) }
                }
                if try await handle(page) == .stop || nextURL == nil {
                    group.cancelAll()
                    return
                }
            }
        }
    }

    private func check(_ next: String, seen: Set<String>, emptyInARow: Int) throws(FeatureServiceError) {
        guard !seen.contains(next) else {
            throw FeatureServiceError(
                .pagingCycle, "\(layer): a `next` link leads back to a page already fetched (\(next)); paging would never end",
                layer: layer)
        }
        guard URIReference.origin(of: next) == origin else {
            throw FeatureServiceError(
                .foreignNextLink,
                "\(layer): a `next` link leads to another origin (\(URIReference.origin(of: next) ?? next)) than the "
                    + "landing page's (\(origin)); it is not followed and nothing partial is published",
                layer: layer)
        }
        guard emptyInARow < maxConsecutiveEmptyPages else {
            throw FeatureServiceError(
                .pagingStalled, "\(layer): \(emptyInARow) empty pages in a row still link to a `next` page; giving up",
                layer: layer)
        }
    }

    private func firstPage(_ url: String, fallback: String?) async throws -> ItemPage {
        do {
            return try await fetch(url)
        } catch let error as FeatureServiceError
            where (error.httpStatus == 400 || error.httpStatus == 500 || error.code == .limitExceeded) && fallback != nil
        {
            guard let fallback else { throw error }
            transport.logger.notice(
                "an OGC API server refused the first page's limit; asking once with a smaller one",
                metadata: ["layer": "\(layer)", "error.message": "\(error.message)"])
            return try await fetch(fallback)
        }
    }

    private func fetch(_ url: String) async throws -> ItemPage {
        let layer = self.layer
        return try await transport.fetch(url, layer: layer) { response throws(FeatureServiceError) in
            try ItemPage.decode(response, layer: layer)
        }
    }
}
