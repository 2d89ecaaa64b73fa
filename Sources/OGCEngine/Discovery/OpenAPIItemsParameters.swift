import FeatureQuerySupport

/// The query parameters an OpenAPI 3 document declares for items paths (`…/items`), by name: how the engine
/// learns that a server takes `properties`, `skipGeometry` or `sortby` without a conformance class saying so
/// (pygeoapi declares them only here). Only what is declared is ever sent: an unknown parameter may be a 400.
enum OpenAPIItemsParameters {
    static func names(in document: ParsedJSON) -> Set<String> {
        let components = document["components"]?["parameters"]?.objectValue ?? [:]
        var names: Set<String> = []
        func visit(_ parameter: ParsedJSON) {
            if let name = parameter["name"]?.stringValue {
                if parameter["in"]?.stringValue ?? "query" == "query" { names.insert(name) }
                return
            }
            guard let reference = parameter["$ref"]?.stringValue else { return }
            let local = "#/components/parameters/"
            if reference.hasPrefix(local) {
                let key = String(reference.dropFirst(local.count))
                if let target = components[key], target["$ref"] == nil { visit(target) } else { names.insert(key) }
                return
            }
            // An external reference (`…/parameters/sortby.yaml`, `…openapi.yaml#/components/parameters/bbox`):
            // the last path segment names the parameter.
            let tail = reference.split(separator: "/").last.map(String.init) ?? reference
            let name = tail.split(separator: ".").first.map(String.init) ?? tail
            if !name.isEmpty { names.insert(name) }
        }
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            guard trimmed.hasSuffix("/items") else { continue }
            for parameter in item["parameters"]?.arrayValue ?? [] { visit(parameter) }
            for parameter in item["get"]?["parameters"]?.arrayValue ?? [] { visit(parameter) }
        }
        return names
    }
}
