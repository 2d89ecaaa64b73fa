import EngineExecution
import CurlHTTP
import FeatureQuerySupport
import FeatureService
import Logging

/// Reads a landing page into a ``ServiceDescription``: its `conformance`, `data` and `service-desc` links are
/// followed (no path is assumed), `/collections` is read page by page along `next`, and `limit`'s maximum is
/// taken from the OpenAPI document when it is JSON and small.
struct ServiceDiscovery: Sendable {
    let transport: OGCSession
    /// What the landing page, conformance and collections are asked as (they are JSON, not GeoJSON).
    static let acceptDocument = "application/json"
    /// The most `/collections` pages followed.
    static let maxCollectionPages = 1_000

    private static let conformanceRels = ["conformance", "http://www.opengis.net/def/rel/ogc/1.0/conformance"]
    private static let dataRels = ["data", "http://www.opengis.net/def/rel/ogc/1.0/data"]

    func describe(landing: String) async throws -> ServiceDescription {
        guard let origin = URIReference.origin(of: landing), landing.hasPrefix("http://") || landing.hasPrefix("https://") else {
            throw FeatureServiceError(.invalidURL, "\(landing) is not an absolute http(s) landing page URL", layer: landing)
        }
        let (landingDocument, landingURL) = try await transport.fetch(landing, layer: landing, accept: Self.acceptDocument) { response throws(FeatureServiceError) in
            (try OGCResponse.document(response, layer: landing, expecting: "a landing page"), response.url)
        }
        let links = Link.links(of: landingDocument)
        guard let data = Link.best(links, rel: Self.dataRels) else {
            throw OGCFailure.malformed(landing, "the landing page has no `data` link to its collections")
        }
        let dataURL = URIReference.resolve(data.href, against: landingURL)
        let conformanceURL = Link.best(links, rel: Self.conformanceRels).map { URIReference.resolve($0.href, against: landingURL) }
        let serviceDesc = Link.best(links, rel: ["service-desc"]).flatMap { link -> String? in
            // Only a JSON OpenAPI document is read; YAML or an untyped one is skipped.
            guard let type = link.type?.lowercased(), type.contains("json") else { return nil }
            return URIReference.resolve(link.href, against: landingURL)
        }

        async let conformance = conformance(conformanceURL, landing: landing)
        async let openAPI = openAPI(serviceDesc, landing: landing)
        let collections = try await collections(dataURL, landing: landing, origin: origin, conformance: try await conformance)
        let facts = try await openAPI
        return ServiceDescription(
            landing: landing, origin: origin, conformance: try await conformance, collections: collections,
            limitMaximum: facts.limitMaximum, itemsParameters: facts.itemsParameters)
    }

    private func conformance(_ url: String?, landing: String) async throws -> Conformance {
        guard let url else { return Conformance([]) }
        return try await transport.fetch(url, layer: landing, accept: Self.acceptDocument) { response throws(FeatureServiceError) in
            let document = try OGCResponse.document(response, layer: landing, expecting: "a conformance declaration")
            return Conformance((document["conformsTo"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
    }

    /// Every collection, along `next` links within the landing page's origin.
    private func collections(
        _ first: String, landing: String, origin: String, conformance: Conformance
    ) async throws -> [CollectionMetadata] {
        var collections: [CollectionMetadata] = []
        var seen: Set<String> = []
        var next: String? = first
        var pages = 0
        while let url = next {
            guard seen.insert(url).inserted else {
                throw FeatureServiceError(.pagingCycle, "\(landing): the collections' `next` link returns to \(url)", layer: landing)
            }
            guard URIReference.origin(of: url) == origin else {
                throw FeatureServiceError(
                    .foreignNextLink, "\(landing): a collections link leads to another origin (\(url)); it is not followed",
                    layer: landing)
            }
            pages += 1
            guard pages <= Self.maxCollectionPages else {
                throw FeatureServiceError(.pagingStalled, "\(landing): more than \(Self.maxCollectionPages) pages of collections", layer: landing)
            }
            let (page, pageNext) = try await transport.fetch(url, layer: landing, accept: Self.acceptDocument) { response throws(FeatureServiceError) in
                let document = try OGCResponse.document(response, layer: landing, expecting: "a list of collections")
                guard let items = document["collections"]?.arrayValue else {
                    throw OGCFailure.malformed(landing, "the collections document has no `collections` array")
                }
                let sharedCRS = (document["crs"]?.arrayValue ?? []).compactMap(\.stringValue)
                let parsed = items.compactMap {
                    CollectionMetadata(
                        $0, landing: landing, collectionsURL: first, responseURL: response.url, sharedCRS: sharedCRS,
                        conformance: conformance)
                }
                let next = Link.best(Link.links(of: document), rel: ["next"]).map { URIReference.resolve($0.href, against: response.url) }
                return (parsed, next)
            }
            collections += page
            next = pageNext
        }
        return collections
    }

    /// `limit`'s declared maximum in a JSON OpenAPI document (the smallest, when several are declared; nil
    /// when there is none) and the items parameters it declares; neither when the document cannot be read
    /// cheaply. A failure here never fails discovery.
    private func openAPI(_ url: String?, landing: String) async throws -> (limitMaximum: Int?, itemsParameters: Set<String>) {
        guard let url else { return (nil, []) }
        do {
            return try await transport.fetch(
                url, layer: landing, accept: "application/vnd.oai.openapi+json;version=3.0, application/json;q=0.9",
                maxResponseSize: transport.configuration.maxServiceDescriptionBytes
            ) { response throws(FeatureServiceError) in
                let document = try OGCResponse.document(response, layer: landing, expecting: "an OpenAPI document")
                return (OpenAPILimit.maximum(in: document), OpenAPIItemsParameters.names(in: document))
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as FeatureServiceError where error.code == .cancelled {
            throw error
        } catch {
            transport.logger.info(
                "the OpenAPI document could not be read; the default page limit is used",
                metadata: ["landing": "\(landing)", "error": "\(error)"])
            return (nil, [])
        }
    }
}

/// Reads `limit`'s maximum out of an OpenAPI 3 document.
enum OpenAPILimit {
    static func maximum(in document: ParsedJSON) -> Int? {
        var maxima: [Int] = []
        func visit(_ parameter: ParsedJSON) {
            guard parameter["name"]?.stringValue == "limit", parameter["in"]?.stringValue ?? "query" == "query" else { return }
            if let maximum = parameter["schema"]?["maximum"]?.numberValue, maximum >= 1, maximum < 1e12 {
                maxima.append(Int(maximum))
            }
        }
        for parameter in document["components"]?["parameters"]?.objectValue?.values ?? [:].values { visit(parameter) }
        for path in document["paths"]?.objectValue?.values ?? [:].values {
            for parameter in path["parameters"]?.arrayValue ?? [] { visit(parameter) }
            for parameter in path["get"]?["parameters"]?.arrayValue ?? [] { visit(parameter) }
        }
        return maxima.min()
    }
}
