import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// Walking and reading the OGC face's responses: `next` links resolved against the page URL as a client
/// must (absolute, or relative to the items path), with a bound on pages and a record of every URL seen.
struct OGCWalk {
    var pages: [[String: Any]] = []
    var urls: [String] = []
    /// Feature ids in arrival order, repeats kept.
    var ids: [Int] = []
    /// Whether a `next` led to a URL already fetched.
    var cycled = false

    static func walk(_ client: HTTPClient, _ start: String, maxPages: Int = 500) async throws -> OGCWalk {
        var walk = OGCWalk()
        var url: String? = start
        while let current = url, walk.pages.count < maxPages {
            if walk.urls.contains(current) {
                walk.cycled = true
                break
            }
            walk.urls.append(current)
            let response = try await client.get(current)
            guard response.status == 200 else { throw UnexpectedResponse(description: "HTTP \(response.status) for \(current): \(response.bodyString.prefix(300))") }
            let page = try response.jsonObject()
            walk.pages.append(page)
            walk.ids += page.featureIDsOGC
            url = page.nextHref.map { resolve($0, against: current) }
        }
        return walk
    }

    /// RFC 3986 resolution for the forms the server writes: absolute, or a relative path (`items?...`).
    static func resolve(_ href: String, against base: String) -> String {
        if href.hasPrefix("http://") || href.hasPrefix("https://") { return href }
        let path = base.split(separator: "?", maxSplits: 1)[0]
        guard let slash = path.lastIndex(of: "/") else { return href }
        return String(path[...slash]) + href
    }
}

extension Dictionary where Key == String, Value == Any {
    /// OGC feature ids (integers).
    var featureIDsOGC: [Int] { features.compactMap { ($0["id"] as? NSNumber)?.intValue } }
    var links: [[String: Any]] { self["links"] as? [[String: Any]] ?? [] }
    func linkHref(_ rel: String) -> String? { links.first { $0["rel"] as? String == rel }?["href"] as? String }
    var nextHref: String? { linkHref("next") }
    var numberMatched: Int? { int("numberMatched") }
    var numberReturned: Int? { int("numberReturned") }
}

extension HTTPClient {
    /// GET an OGC URL (query items form-encoded), requiring `status`, and parse the JSON object.
    func ogc(_ url: String, _ parameters: [(String, String)] = [], status: Int = 200) async throws -> [String: Any] {
        let response = try await get(url, parameters)
        guard response.status == status else {
            throw UnexpectedResponse(description: "HTTP \(response.status), expected \(status): \(response.bodyString.prefix(300))")
        }
        return try response.jsonObject()
    }
}

extension SampleFeatureServer {
    /// `…/ogc/collections/{id}/items` (or under a quirks mount).
    func itemsURL(_ collection: String, quirks: [String] = []) -> String {
        ogcURL(quirks: quirks) + "/collections/" + collection + "/items"
    }
}
