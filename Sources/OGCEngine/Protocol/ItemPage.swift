import CurlHTTP
import FeatureQuerySupport
import FeatureService

/// One page of items: its features (still JSON), the server's `numberMatched`, and its `next` link resolved
/// against the URL that answered (RFC 3986), preferring GeoJSON, then JSON, then an untyped link, never HTML.
struct ItemPage: Sendable {
    let url: String
    let features: [ParsedJSON]
    let numberMatched: Int?
    let next: String?

    /// Decodes a 2xx items answer. `Content-Crs`, when present, must be CRS84 (what the engine asks for by
    /// asking for no other): anything else is `crs_mismatch`, since the coordinates would be misread.
    static func decode(_ response: HTTPResponse, layer: String) throws(FeatureServiceError) -> ItemPage {
        if let crs = response.headers["Content-Crs"], !CRS84.isCRS84(crs) {
            throw FeatureServiceError(
                .crsMismatch,
                "\(layer) answered coordinates in \(crs) (Content-Crs) where CRS84 longitude/latitude was asked for",
                layer: layer, details: [crs])
        }
        let document = try OGCResponse.document(response, layer: layer, expecting: "a GeoJSON FeatureCollection")
        guard let features = document["features"]?.items else {
            throw OGCFailure.malformed(layer, "an items page has no `features` array, so it is not a FeatureCollection")
        }
        let next = Link.best(Link.links(of: document), rel: ["next"]).map {
            URIReference.resolve($0.href, against: response.url)
        }
        return ItemPage(url: response.url, features: features, numberMatched: document["numberMatched"]?.count, next: next)
    }
}
