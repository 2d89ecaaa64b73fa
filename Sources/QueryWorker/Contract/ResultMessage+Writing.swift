import FeatureQuerySupport
import FeatureGeometry
import FeatureService
import FeatureQuerySupport
import RequestContract

extension ResultMessage {
    /// One part: the envelope, then each segment as a layer entry with its slice of items.
    func write(part: Int, of parts: Int, segments: [ResultSegment]) -> [UInt8] {
        var capacity = 512
        for segment in segments {
            let selection = layers[segment.layer].answer?.selection
            capacity += 256 + (segment.start..<segment.end).reduce(0) { $0 + itemSize(segment.layer, selection, $1, first: false) }
        }
        var writer = JSONWriter(capacity: capacity)
        writeEnvelopeHead(part: part, of: parts, to: &writer)
        for (index, segment) in segments.enumerated() {
            if index > 0 { writer.comma() }
            writeLayer(segment.layer, start: segment.start, end: segment.end, to: &writer)
        }
        writer.raw("]}")
        return writer.bytes
    }

    /// `{"requestId":…,"taskId":…,"status":…,"part":…,"parts":…,"receivedAt":…,"finishedAt":…,"durationMs":…,
    /// "worker":…,"layers":[` — the layers come last so the envelope reads first.
    func writeEnvelopeHead(part: Int, of parts: Int, to writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("requestId")
        writer.string(requestId)
        writer.comma()
        writer.key("taskId")
        writer.string(taskId)
        writer.comma()
        writer.key("status")
        writer.string(status.rawValue)
        writer.comma()
        writer.key("part")
        writer.integer(part)
        writer.comma()
        writer.key("parts")
        writer.integer(parts)
        writer.comma()
        writer.key("receivedAt")
        writer.timestamp(milliseconds: receivedAt)
        writer.comma()
        writer.key("finishedAt")
        writer.timestamp(milliseconds: finishedAt)
        writer.comma()
        writer.key("durationMs")
        writer.integer(durationMs)
        writer.comma()
        writer.key("worker")
        writer.string(worker)
        writer.comma()
        writer.key("layers")
        writer.raw("[")
    }

    /// One layer entry holding items `start..<end`: its fields, then `objectIds` and `features` slices (when
    /// the selection has them) or `error`.
    func writeLayer(_ index: Int, start: Int, end: Int, to writer: inout JSONWriter) {
        let layer = layers[index]
        let answer = layer.answer
        writer.raw("{")
        writer.key("url")
        writer.string(layer.url)
        if let collection = answer?.collection {
            writer.comma()
            writer.key("collection")
            writer.string(collection)
        }
        if let layerId = answer?.layerId {
            writer.comma()
            writer.key("layerId")
            writer.integer(layerId)
        }
        if let name = answer?.name {
            writer.comma()
            writer.key("name")
            writer.string(name)
        }
        writer.comma()
        writer.key("status")
        writer.string(answer == nil ? "failed" : "succeeded")
        if let field = answer?.objectIdField {
            writer.comma()
            writer.key("objectIdField")
            writer.string(field)
        }
        switch layer.result {
        case .failure(let error):
            writer.comma()
            writer.key("complete")
            writer.bool(false)
            writer.comma()
            writer.key("error")
            ContractError(error).write(to: &writer)
        case .success(let answer):
            writer.comma()
            writer.key("count")
            writer.integer(answer.count)
            writer.comma()
            writer.key("complete")
            writer.bool(answer.isComplete)
            if !answer.isComplete, let reason = answer.incompleteReason {
                writer.comma()
                writer.key("incompleteReason")
                writer.string(reason.rawValue)
            }
            if let site = answer.filteredBy {
                writer.comma()
                writer.key("filteredBy")
                writer.string(site.rawValue)
            }
            writeTableFields(answer, to: &writer)
            let selection = answer.selection
            switch selection {
            case .countOnly:
                break
            case .objectIds(let ids):
                Self.writeObjectIds(ids, start..<end, to: &writer)
            case .featureIds(let ids):
                Self.writeArray("featureIds", start..<end, to: &writer) { $1.featureId(ids[$0]) }
            case .catalog(let entries):
                Self.writeArray("catalog", start..<end, to: &writer) { $1.catalogEntry(entries[$0]) }
            case .statistics(let rows):
                Self.writeArray("statistics", start..<end, to: &writer) { $1.statisticsRow(rows[$0]) }
            case .distinct(let rows):
                Self.writeArray("distinct", start..<end, to: &writer) { $1.namedValues(rows[$0]) }
            case .extent:
                break
            case .stored(let stored):
                Self.writeLocation(stored, to: &writer)
            case .related(let related):
                if let layout = groupedItems[index] { Self.writeRelated(related, layout, start..<end, to: &writer) }
            case .attachments(let groups):
                if let layout = groupedItems[index] { Self.writeAttachments(groups, layout, start..<end, to: &writer) }
            case .features(let features):
                switch features.identifiers {
                case .objectIds(let ids): Self.writeObjectIds(ids, start..<end, to: &writer)
                case .featureIds(let ids): Self.writeArray("featureIds", start..<end, to: &writer) { $1.featureId(ids[$0]) }
                }
                writer.comma()
                writer.key("features")
                writer.raw(#"{"type":"FeatureCollection","features":["#)
                for item in start..<end {
                    if item > start { writer.comma() }
                    writer.raw(features.json[item])
                }
                writer.raw("]}")
            }
        }
        writer.raw("}")
    }

    /// `,"objectIds":[…]` holding ids `range`, written as one list (``JSONWriter/integerList(_:)``).
    static func writeObjectIds(_ ids: [Int64], _ range: Range<Int>, to writer: inout JSONWriter) {
        writer.comma()
        writer.key("objectIds")
        writer.raw("[")
        writer.integerList(ids[range])
        writer.raw("]")
    }

    /// `,"key":[…]` holding items `range` of a layer's selection, each written by `element` (given the item's
    /// index): the one shape of `objectIds`, `featureIds`, `catalog`, `statistics` and `distinct` slices.
    @inline(__always)
    static func writeArray(
        _ key: StaticString, _ range: Range<Int>, to writer: inout JSONWriter,
        _ element: (Int, inout JSONWriter) -> Void
    ) {
        writer.comma()
        writer.key(key)
        writer.raw("[")
        for item in range {
            if item > range.lowerBound { writer.comma() }
            element(item, &writer)
        }
        writer.raw("]")
    }
}

extension ContractError {
    /// Writes the contract's `error` object: code, message, retryable, details (an object or array; any other
    /// value is wrapped as `{"value": …}`).
    func write(to writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("code")
        writer.string(code.rawValue)
        writer.comma()
        writer.key("message")
        writer.string(message.isEmpty ? code.rawValue : message)
        writer.comma()
        writer.key("retryable")
        writer.bool(retryable)
        if let details {
            writer.comma()
            writer.key("details")
            switch details {
            case .object, .array: writer.value(details)
            default: writer.value(.object(["value": details]))
            }
        }
        writer.raw("}")
    }
}
