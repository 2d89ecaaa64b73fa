import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

/// The discovery documents of the OGC face: landing page, conformance, collections, one collection and its
/// queryables. Which classes are declared depends on the mount's quirks (`no-filter` drops Part 3).
enum OGCDocuments {
    static let part1 = "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/"
    static let part2 = "http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/"
    static let part3 = "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/"
    static let cql2 = "http://www.opengis.net/spec/cql2/1.0/conf/"
    /// Part 8 (Sorting, draft 24-030).
    static let sorting = "http://www.opengis.net/spec/ogcapi-features-8/1.0/conf/sorting"
    static let sortablesRel = "http://www.opengis.net/def/rel/ogc/1.0/sortables"

    static func conformanceClasses(_ quirks: OGCQuirks) -> [String] {
        var classes = [part1 + "core", part1 + "geojson", part1 + "oas30", part2 + "crs"]
        if quirks.declaresFilter {
            classes += [part3 + "queryables", part3 + "queryables-query-parameters", part3 + "filter", part3 + "features-filter"]
            classes += OGCFilter.cql2Classes
        }
        if quirks.declaresSorting { classes.append(sorting) }
        return classes
    }

    static func landing(_ links: OGCLinks) -> [UInt8] {
        var json = JSONWriter(capacity: 1_024)
        json.raw("{\"title\":\"Sample feature server (OGC API - Features)\",")
        json.raw("\"description\":\"Generated LA County parcels, USA layers and a Daraa look-alike, as OGC API Features.\",\"links\":[")
        link(&json, links.href(""), rel: "self", type: OGCResponses.jsonType, title: "This document")
        json.byte(UInt8(ascii: ","))
        link(&json, links.href("/api"), rel: "service-desc", type: OGCResponses.openAPIType, title: "The API definition")
        json.byte(UInt8(ascii: ","))
        link(&json, links.href("/conformance"), rel: "conformance", type: OGCResponses.jsonType, title: "Conformance classes")
        json.byte(UInt8(ascii: ","))
        link(&json, links.href("/collections"), rel: "data", type: OGCResponses.jsonType, title: "The collections")
        json.raw("]}")
        return json.bytes
    }

    static func conformance(_ quirks: OGCQuirks) -> [UInt8] {
        var json = JSONWriter(capacity: 1_024)
        json.raw("{\"conformsTo\":[")
        for (number, uri) in conformanceClasses(quirks).enumerated() {
            if number > 0 { json.byte(UInt8(ascii: ",")) }
            json.string(uri)
        }
        json.raw("]}")
        return json.bytes
    }

    static func collections(_ catalog: OGCCatalog, _ links: OGCLinks) -> [UInt8] {
        var json = JSONWriter(capacity: 16_384)
        json.raw("{\"links\":[")
        link(&json, links.href("/collections"), rel: "self", type: OGCResponses.jsonType, title: "The collections")
        json.raw("],\"crs\":[")
        for (number, crs) in OGCCRS.allCases.enumerated() {
            if number > 0 { json.byte(UInt8(ascii: ",")) }
            json.string(crs.uri)
        }
        json.raw("],\"collections\":[")
        for (number, collection) in catalog.collections.enumerated() {
            if number > 0 { json.byte(UInt8(ascii: ",")) }
            self.collection(collection, links, to: &json, globalCRS: true)
        }
        json.raw("]}")
        return json.bytes
    }

    static func collection(_ collection: OGCCollection, _ links: OGCLinks) -> [UInt8] {
        var json = JSONWriter(capacity: 2_048)
        self.collection(collection, links, to: &json, globalCRS: false)
        return json.bytes
    }

    /// One collection's description; in `/collections` its `crs` is `["#/crs"]`, the list given once there.
    private static func collection(_ collection: OGCCollection, _ links: OGCLinks, to json: inout JSONWriter, globalCRS: Bool) {
        let path = "/collections/" + OGCLinks.pathSegment(collection.id)
        json.raw("{\"id\":")
        json.string(collection.id)
        json.raw(",\"title\":")
        json.string(collection.title)
        json.raw(",\"description\":")
        json.string(collection.description)
        json.raw(",\"itemType\":\"feature\",\"extent\":{\"spatial\":{\"bbox\":[[")
        json.double(collection.extent.xmin)
        json.byte(UInt8(ascii: ","))
        json.double(collection.extent.ymin)
        json.byte(UInt8(ascii: ","))
        json.double(collection.extent.xmax)
        json.byte(UInt8(ascii: ","))
        json.double(collection.extent.ymax)
        json.raw("]],\"crs\":")
        json.string(OGCCRS.crs84.uri)
        json.raw("}")
        if let temporal = collection.temporal {
            json.raw(",\"temporal\":{\"interval\":[[")
            json.string(RFC3339.string(fromMilliseconds: temporal.start))
            json.byte(UInt8(ascii: ","))
            json.string(RFC3339.string(fromMilliseconds: temporal.end))
            json.raw("]],\"trs\":\"http://www.opengis.net/def/uom/ISO-8601/0/Gregorian\"}")
        }
        json.raw("},\"crs\":[")
        if globalCRS {
            json.string("#/crs")
        } else {
            for (number, crs) in OGCCRS.allCases.enumerated() {
                if number > 0 { json.byte(UInt8(ascii: ",")) }
                json.string(crs.uri)
            }
        }
        json.raw("],\"storageCrs\":")
        json.string(collection.storageCRS.uri)
        json.raw(",\"links\":[")
        link(&json, links.href(path), rel: globalCRS ? "collection" : "self", type: OGCResponses.jsonType, title: collection.title)
        json.byte(UInt8(ascii: ","))
        link(&json, links.href(path + "/items"), rel: "items", type: OGCResponses.geoJSONType, title: "Features of " + collection.title)
        if links.quirks.declaresFilter {
            json.byte(UInt8(ascii: ","))
            link(&json, links.href(path + "/queryables"), rel: "http://www.opengis.net/def/rel/ogc/1.0/queryables",
                 type: OGCResponses.schemaType, title: "Queryables of " + collection.title)
        }
        if links.quirks.declaresSorting {
            json.byte(UInt8(ascii: ","))
            link(&json, links.href(path + "/sortables"), rel: sortablesRel, type: OGCResponses.schemaType,
                 title: "Sortables of " + collection.title)
        }
        json.raw("]}")
    }

    /// The queryables: every field (with its JSON Schema type) and the geometry; nothing else is allowed.
    static func queryables(_ collection: OGCCollection, _ links: OGCLinks, sortables: Bool = false) -> [UInt8] {
        var json = JSONWriter(capacity: 2_048)
        json.raw("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$id\":")
        json.string(links.href("/collections/" + OGCLinks.pathSegment(collection.id) + (sortables ? "/sortables" : "/queryables")))
        json.raw(",\"type\":\"object\",\"title\":")
        json.string(collection.title)
        json.raw(",\"properties\":{")
        for (number, field) in collection.fields.enumerated() {
            if number > 0 { json.byte(UInt8(ascii: ",")) }
            json.raw(collection.propertyKeys[number])
            json.raw("{\"title\":")
            json.string(field.alias)
            switch field.type {
            case .objectID, .integer, .smallInteger, .bigInteger: json.raw(",\"type\":\"integer\"")
            case .double, .single: json.raw(",\"type\":\"number\"")
            case .date: json.raw(",\"type\":\"string\",\"format\":\"date-time\"")
            case .string, .globalID, .guid:
                json.raw(",\"type\":\"string\"")
                if let length = field.length {
                    json.raw(",\"maxLength\":")
                    json.integer(length)
                }
            }
            json.raw("}")
        }
        if sortables {  // every property sorts; the geometry does not
            json.raw("},\"additionalProperties\":false}")
            return json.bytes
        }
        json.raw(",\"geometry\":{\"format\":")
        switch collection.geometryType {
        case .point, .multipoint: json.string("geometry-point")
        case .polyline: json.string("geometry-linestring")
        default: json.string("geometry-polygon")
        }
        json.raw("}},\"additionalProperties\":false}")
        return json.bytes
    }

    static func link(_ json: inout JSONWriter, _ href: String, rel: String, type: String, title: String? = nil) {
        json.raw("{\"href\":")
        json.string(href)
        json.raw(",\"rel\":")
        json.string(rel)
        json.raw(",\"type\":")
        json.string(type)
        if let title {
            json.raw(",\"title\":")
            json.string(title)
        }
        json.raw("}")
    }
}
