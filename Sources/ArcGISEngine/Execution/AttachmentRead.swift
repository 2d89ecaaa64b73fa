import FeatureService

/// One request of an attachments read.
enum AttachmentStep: Sendable {
    /// `queryAttachments` for these features.
    case query(chunk: Int, features: [Int64])
    /// One feature's own `<layer>/<objectId>/attachments` resource (no transfer limit there).
    case feature(chunk: Int, objectId: Int64)

    var chunk: Int {
        switch self {
        case .query(let chunk, _), .feature(let chunk, _): chunk
        }
    }
}

enum AttachmentAnswer: Sendable {
    case page(AttachmentsPage)
    case feature([AttachmentRow])
}

/// The state of one attachments read (``LayerQueryRunner/runAttachments(_:)``): the steps to ask and the
/// attachments held, per feature, each kept once. As ``RelatedRead``, a plain value used by the reading task.
struct AttachmentRead: Sendable {
    private(set) var progress: ChunkProgress
    /// Whether some feature's attachments came from its own resource rather than `queryAttachments`.
    private(set) var readFeatures = false
    private(set) var count = 0
    private var held: [Int64: [Int64: AttachmentInfo]] = [:]
    private var stack: [AttachmentStep] = []
    private let layerURL: String

    /// A read of `features` (ascending): by `queryAttachments` in chunks of `chunkSize` where the layer
    /// answers it, else one feature at a time.
    init(features: [Int64], chunkSize: Int, viaQuery: Bool, layerURL: String) {
        self.layerURL = layerURL
        let size = viaQuery ? max(1, chunkSize) : 1
        let starts = Array(stride(from: 0, to: features.count, by: size))
        progress = ChunkProgress(chunks: starts.count, steps: 1)
        readFeatures = !viaQuery && !features.isEmpty
        for (chunk, start) in starts.enumerated().reversed() {
            if viaQuery {
                stack.append(.query(chunk: chunk, features: Array(features[start..<min(start + size, features.count)])))
            } else {
                stack.append(.feature(chunk: chunk, objectId: features[start]))
            }
        }
    }

    mutating func next() -> AttachmentStep? { stack.popLast() }

    /// Takes `answer` in, its attachments reserved with `reserve` (their bytes) first: when it refuses,
    /// nothing of the answer is held and false is returned. A `queryAttachments` answer cut at the transfer
    /// limit is asked again in halves, and a single feature's from its own resource.
    mutating func record(_ step: AttachmentStep, _ answer: AttachmentAnswer, reserve: (Int) -> Bool = { _ in true }) -> Bool {
        let before = count
        var groups: [(feature: Int64, infos: [AttachmentInfo])] = []
        switch (step, answer) {
        case (.query(_, let features), .page(let page)):
            let asked = Set(features)
            for group in page.groups where asked.contains(group.objectId) {
                groups.append((group.objectId, infos(group.rows, feature: group.objectId)))
            }
        case (.feature(_, let objectId), .feature(let rows)):
            groups.append((objectId, infos(rows, feature: objectId)))
        default:
            break
        }
        guard reserve(groups.reduce(0) { $0 + $1.infos.reduce(0) { $0 + Self.bytes(of: $1) } }) else { return false }
        for group in groups { hold(group.infos, feature: group.feature) }
        if case (.query(let chunk, let features), .page(let page)) = (step, answer), page.exceededTransferLimit {
            if features.count > 1 {
                let middle = features.count / 2
                push(.query(chunk: chunk, features: Array(features[middle...])))
                push(.query(chunk: chunk, features: Array(features[..<middle])))
            } else if let only = features.first {
                readFeatures = true
                push(.feature(chunk: chunk, objectId: only))
            }
        }
        progress.finished(step.chunk, added: count - before)
        return true
    }

    private func infos(_ rows: [AttachmentRow], feature: Int64) -> [AttachmentInfo] {
        rows.map { row in
            AttachmentInfo(
                id: row.id, name: row.name, contentType: row.contentType, size: row.size, keywords: row.keywords,
                url: AttachmentURL.clean(row.url, layer: layerURL, feature: feature, attachment: row.id))
        }
    }

    private static func bytes(of info: AttachmentInfo) -> Int {
        96 + info.name.utf8.count + info.contentType.utf8.count + info.keywords.utf8.count + info.url.utf8.count
    }

    private mutating func hold(_ infos: [AttachmentInfo], feature: Int64) {
        for info in infos where held[feature]?[info.id] == nil {
            held[feature, default: [:]][info.id] = info
            count += 1
        }
    }

    private mutating func push(_ step: AttachmentStep) {
        progress.started(step.chunk)
        stack.append(step)
    }

    /// The groups in feature order, attachments by id, at most `limit` attachments in all; and whether the
    /// limit cut them.
    func finish(limit: Int?) -> (groups: [AttachmentGroup], cut: Bool) {
        var remaining = limit ?? .max
        var groups: [AttachmentGroup] = []
        for feature in held.keys.sorted() {
            guard let byId = held[feature], !byId.isEmpty else { continue }
            guard remaining > 0 else { return (groups, true) }
            var attachments = byId.keys.sorted().compactMap { byId[$0] }
            var cut = false
            if attachments.count > remaining {
                attachments.removeLast(attachments.count - remaining)
                cut = true
            }
            remaining -= attachments.count
            groups.append(AttachmentGroup(objectId: feature, attachments: attachments))
            if cut { return (groups, true) }
        }
        return (groups, false)
    }
}

/// Where a client fetches an attachment: the service's URL for it without the token a secured service may
/// have appended (a result must never carry a credential: a caller brings its own), or, when the service
/// gave none, `<layer>/<objectId>/attachments/<id>`.
enum AttachmentURL {
    static func clean(_ given: String?, layer: String, feature: Int64, attachment: Int64) -> String {
        guard let given, given.hasPrefix("http://") || given.hasPrefix("https://") else {
            return "\(layer)/\(feature)/attachments/\(attachment)"
        }
        guard let mark = given.firstIndex(of: "?") else { return given }
        let kept = given[given.index(after: mark)...].split(separator: "&").filter { field in
            let name = field.split(separator: "=", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            return !secretParameters.contains(name)
        }
        let base = String(given[..<mark])
        return kept.isEmpty ? base : base + "?" + kept.joined(separator: "&")
    }

    /// Query parameters that carry credentials in ArcGIS URLs.
    static let secretParameters: Set<String> = ["token", "access_token", "api_key", "apikey"]
}
