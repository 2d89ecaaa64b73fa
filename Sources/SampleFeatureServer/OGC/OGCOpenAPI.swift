/// The API definition (`/api`, OpenAPI 3.0): the paths and, what clients read it for, the `limit`
/// parameter with its maximum (which the `max-limit-N` quirk lowers) and default.
enum OGCOpenAPI {
    static func document(_ links: OGCLinks, collections: [String]) -> [UInt8] {
        let maximum = links.quirks.maximumLimit
        let server = links.origin + links.base
        var paths = [
            path("/", "getLandingPage", "Landing page", parameters: []),
            path("/api", "getAPI", "This API definition", parameters: []),
            path("/conformance", "getConformanceDeclaration", "Conformance classes", parameters: []),
            path("/collections", "getCollections", "The collections", parameters: []),
            path("/collections/{collectionId}", "describeCollection", "One collection", parameters: ["collectionId"]),
            path("/collections/{collectionId}/items", "getFeatures", "The features of a collection", parameters: [
                "collectionId", "limit", "offset", "bbox", "bbox-crs", "crs", "datetime", "properties", "skipGeometry", "ids",
            ] + (links.quirks.declaresFilter ? ["filter", "filter-lang", "filter-crs"] : [])
                + (links.quirks.declaresSorting ? ["sortby"] : [])),
            path("/collections/{collectionId}/items/{featureId}", "getFeature", "One feature", parameters: ["collectionId", "featureId", "crs"]),
        ]
        if links.quirks.declaresFilter {
            paths.append(path("/collections/{collectionId}/queryables", "getQueryables", "Queryables", parameters: ["collectionId"]))
        }
        if links.quirks.declaresSorting {
            paths.append(path("/collections/{collectionId}/sortables", "getSortables", "Sortables", parameters: ["collectionId"]))
        }
        let ids = collections.map { "\"" + $0 + "\"" }.joined(separator: ",")
        let text = """
            {"openapi":"3.0.3","info":{"title":"Sample feature server (OGC API - Features)","version":"1.0.0"},\
            "servers":[{"url":"\(server)"}],"paths":{\(paths.joined(separator: ","))},\
            "components":{"parameters":{\
            "collectionId":{"name":"collectionId","in":"path","required":true,"schema":{"type":"string","enum":[\(ids)]}},\
            "featureId":{"name":"featureId","in":"path","required":true,"schema":{"type":"integer"}},\
            "limit":{"name":"limit","in":"query","required":false,"style":"form","explode":false,\
            "schema":{"type":"integer","minimum":1,"maximum":\(maximum),"default":\(min(10, maximum))}},\
            "offset":{"name":"offset","in":"query","required":false,"schema":{"type":"integer","minimum":0,"default":0}},\
            "bbox":{"name":"bbox","in":"query","required":false,"style":"form","explode":false,\
            "schema":{"type":"array","minItems":4,"maxItems":6,"items":{"type":"number"}}},\
            "bbox-crs":{"name":"bbox-crs","in":"query","required":false,"schema":{"type":"string","format":"uri"}},\
            "crs":{"name":"crs","in":"query","required":false,"schema":{"type":"string","format":"uri"}},\
            "datetime":{"name":"datetime","in":"query","required":false,"schema":{"type":"string"}},\
            "filter":{"name":"filter","in":"query","required":false,"schema":{"type":"string"}},\
            "filter-lang":{"name":"filter-lang","in":"query","required":false,\
            "schema":{"type":"string","enum":[\(OGCFilter.languages.map { "\"" + $0 + "\"" }.joined(separator: ","))],"default":"cql2-text"}},\
            "filter-crs":{"name":"filter-crs","in":"query","required":false,"schema":{"type":"string","format":"uri"}},\
            "sortby":{"name":"sortby","in":"query","required":false,"style":"form","explode":false,\
            "schema":{"type":"array","items":{"type":"string","pattern":"^[+-]?[^+\\\\-\\\\s].*$"}}},\
            "properties":{"name":"properties","in":"query","required":false,"style":"form","explode":false,\
            "schema":{"type":"array","items":{"type":"string"}}},\
            "skipGeometry":{"name":"skipGeometry","in":"query","required":false,"schema":{"type":"boolean","default":false}},\
            "ids":{"name":"ids","in":"query","required":false,"style":"form","explode":false,\
            "schema":{"type":"array","items":{"type":"integer"}}}\
            }}}
            """
        return Array(text.utf8)
    }

    private static func path(_ path: String, _ operation: String, _ summary: String, parameters: [String]) -> String {
        let references = parameters.map { "{\"$ref\":\"#/components/parameters/\($0)\"}" }.joined(separator: ",")
        return "\"\(path)\":{\"get\":{\"operationId\":\"\(operation)\",\"summary\":\"\(summary)\",\"parameters\":[\(references)],"
            + "\"responses\":{\"200\":{\"description\":\"\(summary)\"}}}}"
    }
}
