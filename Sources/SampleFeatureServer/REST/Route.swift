import FeatureQuerySupport

/// What a request path names under `/arcgis/rest`.
enum Route: Sendable, Equatable {
    case info
    case directory
    case service(SampleService)
    case serviceLayers(SampleService)
    case layer(SampleLayer)
    case query(SampleLayer)
    /// `<layer>/queryRelatedRecords`.
    case queryRelatedRecords(SampleLayer)
    /// `<layer>/queryAttachments`.
    case queryAttachments(SampleLayer)
    /// `<layer>/<oid>/attachments`: the feature's attachment infos. The OBJECTID is kept as text (a path may
    /// name any number) and read by the handler.
    case attachmentInfos(SampleLayer, objectID: String)
    /// `<layer>/<oid>/attachments/<id>`: one attachment's bytes.
    case attachment(SampleLayer, objectID: String, attachmentID: String)
    /// No such service (or folder): ArcGIS answers with an error body.
    case unknownService(String)
    /// No such layer in an existing service.
    case unknownLayer(SampleService, String)
    /// Under `/arcgis/rest` but not a resource or operation this server has.
    case invalidURL
    /// Not under `/arcgis/rest` at all: a plain HTTP 404.
    case outside

    /// Reads a percent-decoded path. Service names and types are matched ignoring case, as ArcGIS does.
    init(path: String) {
        let parts = path.split(separator: "/").map { $0.lowercased() }
        guard parts.count >= 2, parts[0] == "arcgis", parts[1] == "rest" else {
            self = .outside
            return
        }
        if parts.count == 2 {
            self = .directory
            return
        }
        if parts[2] == "info" {
            self = parts.count == 3 ? .info : .invalidURL
            return
        }
        guard parts[2] == "services" else {
            self = .invalidURL
            return
        }
        if parts.count == 3 {
            self = .directory
            return
        }
        let original = path.split(separator: "/").map(String.init)
        guard parts.count >= 5 else {
            self = .unknownService(original[3])
            return
        }
        guard let service = SampleService.allCases.first(where: { $0.name.lowercased() == parts[3] && $0.type.lowercased() == parts[4] })
        else {
            self = .unknownService(original[3] + "/" + original[4])
            return
        }
        let rest = Array(parts.dropFirst(5))
        guard let first = rest.first else {
            self = .service(service)
            return
        }
        if rest == ["layers"] {
            self = .serviceLayers(service)
            return
        }
        guard let id = Int(first) else {
            self = .invalidURL
            return
        }
        guard let layer = service.members.first(where: { $0.layerID == id }) else {
            self = .unknownLayer(service, String(first.prefix(20)))
            return
        }
        switch rest.count {
        case 1: self = .layer(layer)
        case 2 where rest[1] == "query": self = .query(layer)
        case 2 where rest[1] == "queryrelatedrecords": self = .queryRelatedRecords(layer)
        case 2 where rest[1] == "queryattachments": self = .queryAttachments(layer)
        case 3 where rest[2] == "attachments": self = .attachmentInfos(layer, objectID: rest[1])
        case 4 where rest[2] == "attachments": self = .attachment(layer, objectID: rest[1], attachmentID: rest[3])
        default: self = .invalidURL
        }
    }

    var service: SampleService? {
        switch self {
        case .service(let service), .serviceLayers(let service), .unknownLayer(let service, _): service
        default: layer?.service
        }
    }

    var layer: SampleLayer? {
        switch self {
        case .layer(let layer), .query(let layer), .queryRelatedRecords(let layer), .queryAttachments(let layer),
            .attachmentInfos(let layer, _), .attachment(let layer, _, _):
            layer
        default: nil
        }
    }

    var isQuery: Bool {
        if case .query = self { return true }
        return false
    }
}
