import QueryLanguage

/// The conformance classes an API declares, read by what they prove rather than by exact URI: the approved
/// spellings and the draft ones still served (`1.0-draft`, `0.0` versions, `basic-spatial-operators` for
/// `basic-spatial-functions`, `spatial-operators`, `temporal-operators`).
struct Conformance: Hashable, Sendable {
    /// The declared URIs as they came.
    let uris: [String]
    /// Part 3 class names (`filter`, `features-filter`, `queryables`, `queryables-query-parameters`).
    private let features3: Set<String>
    /// CQL2 class names, drafts mapped to approved ones.
    private let cql2: Set<String>
    /// Whether Part 2 (`crs`) is declared.
    let supportsCRS: Bool
    /// Whether Part 8's `sorting` class (items take `sortby`) is declared.
    let supportsSorting: Bool
    /// Whether Part 6's `property-selection` class (items take `properties`) is declared.
    let supportsPropertySelection: Bool

    init(_ uris: [String]) {
        self.uris = uris
        var features3: Set<String> = []
        var cql2: Set<String> = []
        var crs = false
        var sorting = false
        var propertySelection = false
        for uri in uris {
            let lower = uri.lowercased()
            guard let name = lower.split(separator: "/").last.map(String.init) else { continue }
            if lower.contains("ogcapi-features-3") {
                features3.insert(name)
            } else if lower.contains("/cql2/") || lower.contains("/cql/") {
                cql2.insert(Self.approvedName(name))
            } else if lower.contains("ogcapi-features-2"), name == "crs" {
                crs = true
            } else if lower.contains("ogcapi-features-8"), name == "sorting" {
                sorting = true
            } else if lower.contains("ogcapi-features-6"), name == "property-selection" {
                propertySelection = true
            }
        }
        self.features3 = features3
        self.cql2 = cql2
        self.supportsCRS = crs
        self.supportsSorting = sorting
        self.supportsPropertySelection = propertySelection
    }

    private static func approvedName(_ name: String) -> String {
        switch name {
        case "basic-spatial-operators": "basic-spatial-functions"
        case "spatial-operators": "spatial-functions"
        case "temporal-operators": "temporal-functions"
        case "cql-text": "cql2-text"
        case "cql-json": "cql2-json"
        default: name
        }
    }

    /// Items accept `filter` with Basic CQL2 (QGIS's proof): `filter` + `features-filter` + `basic-cql2`.
    var supportsFilter: Bool {
        features3.contains("filter") && features3.contains("features-filter") && cql2.contains("basic-cql2")
    }

    /// The filter languages the worker would send, best first (`cql2-text`, `cql2-json`); empty: Part 1 only.
    var filterLanguages: [String] {
        guard supportsFilter else { return [] }
        return ["cql2-text", "cql2-json"].filter { cql2.contains($0) }
    }

    var supportsQueryables: Bool { features3.contains("queryables") || features3.contains("queryables-query-parameters") }

    /// Queryables may be given as `name=value` query parameters.
    var supportsQueryableParameters: Bool { features3.contains("queryables-query-parameters") }

    /// Whether the API declares every CQL2 class of `required` (URIs, compared by class name).
    func declaresCQL2(_ required: [String]) -> Bool {
        required.allSatisfy { uri in
            guard let name = uri.lowercased().split(separator: "/").last.map(String.init) else { return false }
            return cql2.contains(Self.approvedName(name))
        }
    }
}
