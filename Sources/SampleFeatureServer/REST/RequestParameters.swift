import FeatureGeometry
import FeatureQuerySupport

/// A request's parameters (query string and form body), read once into a table with case-insensitive
/// names, the first occurrence winning. Empty values count as absent, as ArcGIS treats them.
struct RequestParameters: Sendable {
    private var values: [String: String] = [:]

    init(_ parameters: [SampleRequest.Parameter]) {
        for parameter in parameters {
            let name = parameter.name.lowercased()
            if values[name] == nil { values[name] = parameter.value }
        }
    }

    /// The value, or nil when absent or blank.
    subscript(_ name: String) -> String? {
        guard let value = values[name.lowercased()] else { return nil }
        return value.contains(where: { $0 != " " }) ? value : nil
    }

    /// `true`/`false` in any letter case; absent gives `fallback`.
    func bool(_ name: String, default fallback: Bool) throws(ArcGISServiceError) -> Bool {
        guard let text = self[name] else { return fallback }
        switch text.lowercased().trimmingSpaces() {
        case "true": return true
        case "false": return false
        default: throw .invalidRequest("'\(name)' must be true or false; found '\(text.prefix(40))'")
        }
    }

    /// A whole number of at least `minimum`, or nil when absent.
    func integer(_ name: String, minimum: Int) throws(ArcGISServiceError) -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text.trimmingSpaces()), value >= minimum else {
            throw .invalidRequest("'\(name)' must be a whole number of at least \(minimum); found '\(text.prefix(40))'")
        }
        return value
    }

    /// A spatial reference given as a WKID (`4326`) or as JSON (`{"wkid":102100}`), or nil when absent.
    func spatialReference(_ name: String) throws(ArcGISServiceError) -> SpatialReference? {
        guard let text = self[name]?.trimmingSpaces() else { return nil }
        if let wkid = Int(text) { return Self.reference(wkid: wkid) }
        do {
            let reference = try EsriJSON.decodeSpatialReference(ParsedJSON(parsing: text))
            return Self.reference(wkid: reference.wkid, latest: reference.latestWkid)
        } catch {
            throw .invalidRequest("'\(name)' is not a spatial reference: \(Self.describe(error))")
        }
    }

    /// Web Mercator by any of its WKIDs is written as ArcGIS writes it (102100 with latestWkid 3857).
    static func reference(wkid: Int, latest: Int? = nil) -> SpatialReference {
        let reference = SpatialReference(wkid: wkid, latestWkid: latest)
        if reference.isWebMercator { return wkid == 3857 ? SpatialReference(wkid: 3857) : .webMercator }
        return reference
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? GeometryError { return error.message }
        return "\(error)"
    }
}

extension String {
    func trimmingSpaces() -> String { String(self[...].trimmingSpaces()) }
}
