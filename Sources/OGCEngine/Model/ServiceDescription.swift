/// What the engine knows of one landing page: its conformance, its collections, and the page size it may
/// ask for. Cached per landing URL (``OGCEngine``'s metadata cache).
struct ServiceDescription: Sendable {
    /// The landing page URL (no trailing slash): what targets name.
    let landing: String
    /// The origin every request and every `next` link of this API must stay within.
    let origin: String
    let conformance: Conformance
    /// The collections by id, in the order the API lists them.
    let collections: [CollectionMetadata]
    /// `limit`'s maximum from the OpenAPI document, when one was declared and cheap to read.
    let limitMaximum: Int?
    /// The query parameters the OpenAPI document declares for items (`properties`, `skipGeometry`, `sortby`,
    /// ...), by name; empty when there is no readable document. What the engine may send beyond Part 1 without
    /// risking a 400.
    var itemsParameters: Set<String> = []

    /// Items accept `sortby`: the sorting conformance class, or the OpenAPI document lists the parameter.
    var supportsSorting: Bool { conformance.supportsSorting || itemsParameters.contains("sortby") }

    /// Items accept `properties` (a list of property names to return).
    var supportsPropertySelection: Bool { conformance.supportsPropertySelection || itemsParameters.contains("properties") }

    /// Items accept `skipGeometry=true`.
    var supportsSkipGeometry: Bool { itemsParameters.contains("skipGeometry") }

    func collection(_ id: String) -> CollectionMetadata? {
        collections.first { $0.id == id }
    }
}

/// One collection's metadata, as `/collections` describes it.
struct CollectionMetadata: Sendable, Hashable {
    var id: String
    var title: String?
    var description: String?
    /// `{landing}/collections/{id}`: the layer URL of results and errors.
    var url: String
    /// Where the items are: the collection's `items` link resolved (GeoJSON preferred), else `{url}/items`.
    var itemsURL: String
    /// The first (overall) spatial extent box in CRS84: [minLon, minLat, maxLon, maxLat]; minLon > maxLon
    /// crosses the antimeridian.
    var extent: [Double]?
    var temporalExtent: [String?]?
    /// `feature` when absent.
    var itemType: String
    /// The CRS URIs, `#/crs` resolved against `/collections`' list; CRS84 when none is listed.
    var crs: [String]
    var storageCrs: String?
    /// The queryables document's URL (its `queryables` link, or `{url}/queryables` when the API declares
    /// queryables); nil when there is none.
    var queryablesURL: String?
}

/// A collection's queryables: the property names a filter may use, with the JSON schema type and format of
/// each (what turns a date-time string into a date for local evaluation).
struct Queryables: Sendable, Hashable {
    struct Property: Sendable, Hashable {
        var type: String?
        var format: String?
    }

    var properties: [String: Property]
    /// False when `additionalProperties: false`: another name is a 400 at the server.
    var allowsOthers: Bool

    var names: [String] { properties.keys.sorted() }
}

/// The CRS URIs the engine treats as CRS84 (lon/lat WGS 84): what it asks for and what `Content-Crs` must say.
enum CRS84 {
    static let uri = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"

    static func isCRS84(_ text: String) -> Bool {
        var value = Substring(text)
        while value.first == " " || value.first == "<" { value = value.dropFirst() }
        while value.last == " " || value.last == ">" { value = value.dropLast() }
        let lower = value.lowercased()
        return lower == uri.lowercased() || lower == "http://www.opengis.net/def/crs/ogc/0/crs84"
            || lower == "http://www.opengis.net/def/crs/ogc/1.3/crs84h" || lower == "http://www.opengis.net/def/crs/ogc/0/crs84h"
            || lower == "urn:ogc:def:crs:ogc:1.3:crs84" || lower == "[ogc:crs84]"
    }
}
