import FeatureQuerySupport
import FeatureService
import RequestContract

extension ResultMessage {
    /// The result as one message (part 1 of 1), whatever its size.
    func encoded() throws(ContractError) -> [UInt8] {
        try checkUniqueURLs()
        let segments = layers.indices.map { ResultSegment(layer: $0, start: 0, end: itemCount(of: $0)) }
        return write(part: 1, of: 1, segments: segments)
    }

    /// The result as ordered messages of at most `maxBytes` each: one when the whole result fits, else parts
    /// filled greedily in layer order (docs/contract/README.md, "Results larger than a message").
    ///
    /// Every part is a complete result message: the same envelope (ids, status, times, worker) with its own
    /// `part` and `parts`, and `layers` entries carrying each layer's fields with a slice of its `objectIds`
    /// (and `features`, cut at the same place). Concatenating a layer's slices in part order gives the whole.
    ///
    /// Throws ``ContractError/Code/resultTooLarge`` when one feature (or one layer's entry without items)
    /// does not fit in a message even alone: the worker then answers the request `failed` with that error.
    func split(maxBytes: Int) throws(ContractError) -> [[UInt8]] {
        try checkUniqueURLs()
        // Most results fit: write the one message straight away, and plan parts only when it is over the limit.
        let whole = write(part: 1, of: 1, segments: layers.indices.map { ResultSegment(layer: $0, start: 0, end: itemCount(of: $0)) })
        if whole.count <= maxBytes { return [whole] }
        let plan = try planParts(maxBytes: maxBytes)
        return plan.enumerated().map { index, segments in write(part: index + 1, of: plan.count, segments: segments) }
    }

    // MARK: Planning

    /// Splits the layers' items into parts. Sizes are exact: headers are measured by writing them, items by
    /// their digit and byte counts. The envelope is measured with room for 10-digit `part` and `parts`, so a
    /// part is never over the limit whatever the final count.
    func planParts(maxBytes: Int) throws(ContractError) -> [[ResultSegment]] {
        let headers = layers.indices.map { headerSize(of: $0) }
        let base = envelopeSize()
        let whole = base + 2 + layers.indices.reduce(max(0, layers.count - 1)) { total, layer in
            let selection = layers[layer].answer?.selection
            return total + headers[layer]
                + (0..<itemCount(of: layer)).reduce(0) { $0 + itemSize(layer, selection, $1, first: $1 == 0) }
        }
        if whole <= maxBytes {
            return [layers.indices.map { ResultSegment(layer: $0, start: 0, end: itemCount(of: $0)) }]
        }
        let envelope = base + 20
        guard envelope <= maxBytes else {
            throw tooLarge("the result's envelope alone is \(envelope) bytes", limit: maxBytes, details: [:])
        }
        var parts: [[ResultSegment]] = []
        var current: [ResultSegment] = []
        var size = envelope
        func startPart() {
            parts.append(current)
            current = []
            size = envelope
        }
        for layer in layers.indices {
            let count = itemCount(of: layer)
            let header = headers[layer]
            let selection = layers[layer].answer?.selection
            if count == 0 {
                if !current.isEmpty, size + 1 + header > maxBytes { startPart() }
                guard size + (current.isEmpty ? 0 : 1) + header <= maxBytes else {
                    throw tooLarge(
                        "the entry of layer \(layers[layer].url) is \(header) bytes without ids", limit: maxBytes,
                        details: ["layer": .string(layers[layer].url)])
                }
                size += (current.isEmpty ? 0 : 1) + header
                current.append(ResultSegment(layer: layer, start: 0, end: 0))
                continue
            }
            var index = 0
            while index < count {
                let opening = (current.isEmpty ? 0 : 1) + header + itemSize(layer, selection, index, first: true)
                guard size + opening <= maxBytes else {
                    if !current.isEmpty {
                        startPart()
                        continue
                    }
                    throw itemTooLarge(layer: layer, index: index, size: opening, limit: maxBytes)
                }
                size += opening
                let start = index
                index += 1
                while index < count {
                    let next = itemSize(layer, selection, index, first: false)
                    guard size + next <= maxBytes else { break }
                    size += next
                    index += 1
                }
                current.append(ResultSegment(layer: layer, start: start, end: index))
                if index < count { startPart() }
            }
        }
        parts.append(current)
        return parts
    }

    func itemCount(of layer: Int) -> Int {
        if let grouped = groupedItems[layer] { return grouped.count }
        // A stored layer's items are in its object: the result carries only its location.
        if case .stored = layers[layer].answer?.selection { return 0 }
        return layers[layer].answer?.selection.itemCount ?? 0
    }

    /// Bytes item `index` of `layer` adds to a part: its id's digits (and feature bytes), plus the separating
    /// comma in each array unless it is the first item of its slice.
    ///
    /// `selection` is `layers[layer].answer?.selection`, read once by the caller for all of a layer's items: a
    /// layer's answer is a large value, and reading it for each of 20,000 ids copied it each time (half of the
    /// worker's CPU on such a request, in the profile).
    func itemSize(_ layer: Int, _ selection: LayerSelection?, _ index: Int, first: Bool) -> Int {
        guard let selection else { return 0 }
        switch selection {
        case .countOnly, .stored:
            return 0
        case .objectIds(let ids):
            return JSONWriter.digitCount(ids[index]) + (first ? 0 : 1)
        case .featureIds(let ids):
            return JSONWriter.size(of: ids[index]) + (first ? 0 : 1)
        case .features(let features):
            let id = switch features.identifiers {
            case .objectIds(let ids): JSONWriter.digitCount(ids[index])
            case .featureIds(let ids): JSONWriter.size(of: ids[index])
            }
            return id + features.json[index].count + (first ? 0 : 2)
        case .catalog(let entries):
            return JSONWriter.size(of: entries[index]) + (first ? 0 : 1)
        case .statistics(let rows):
            return JSONWriter.size(of: rows[index]) + (first ? 0 : 1)
        case .distinct(let rows):
            return JSONWriter.size(of: rows[index]) + (first ? 0 : 1)
        case .extent:
            return 0
        case .related, .attachments:
            guard let layout = groupedItems[layer] else { return 0 }
            return groupedItemSize(layer, layout, index, first: first)
        }
    }

    private func headerSize(of layer: Int) -> Int {
        var writer = JSONWriter(capacity: 0)
        writeLayer(layer, start: 0, end: 0, to: &writer)
        return writer.bytes.count
    }

    /// The envelope's bytes with empty `layers` (closing `]}` included), not counting the digits of `part`
    /// and `parts`.
    private func envelopeSize() -> Int {
        var writer = JSONWriter(capacity: 0)
        writeEnvelopeHead(part: 1, of: 1, to: &writer)
        let closing = 2
        let digits = 2
        return writer.bytes.count + closing - digits
    }

    private func checkUniqueURLs() throws(ContractError) {
        var seen = Set<String>()
        for layer in layers where !seen.insert(layer.url).inserted {
            throw ContractError(
                .internal,
                "the result lists the layer \(layer.url) twice; a result has one entry per layer URL (merge duplicate targets)")
        }
    }

    private func itemTooLarge(layer: Int, index: Int, size: Int, limit: Int) -> ContractError {
        let url = layers[layer].url
        var id: ParsedJSON?
        var grouped = ""
        if let selection = layers[layer].answer?.selection {
            switch selection {
            case .objectIds(let ids): id = .number(Double(ids[index]))
            case .featureIds(let ids): id = ids[index].map(Self.json)
            case .features(let features):
                switch features.identifiers {
                case .objectIds(let ids): id = .number(Double(ids[index]))
                case .featureIds(let ids): id = ids[index].map(Self.json)
                }
            case .countOnly, .catalog, .statistics, .extent, .distinct, .stored: id = nil
            case .related(let related):
                id = groupedItems[layer].map { .number(Double(related.groups[$0.locate(index).group].objectId)) }
                grouped = "a related record of "
            case .attachments(let groups):
                id = groupedItems[layer].map { .number(Double(groups[$0.locate(index).group].objectId)) }
                grouped = "an attachment of "
            }
        }
        let what = id.map { "\(grouped)feature \(Self.text($0)) of \(url)" } ?? "an entry of \(url)"
        var details: [String: ParsedJSON] = ["layer": .string(url), "size": .number(Double(size))]
        if let id { details[layers[layer].answer?.collection == nil ? "objectId" : "featureId"] = id }
        return tooLarge("\(what) takes \(size) bytes as GeoJSON", limit: limit, details: details)
    }

    private static func json(_ id: FeatureID) -> ParsedJSON {
        switch id {
        case .integer(let value): .number(Double(value))
        case .string(let value): .string(value)
        }
    }

    private static func text(_ id: ParsedJSON) -> String {
        switch id {
        case .string(let value): "\"\(value)\""
        case .number(let value): String(Int64(value))
        default: "?"
        }
    }

    private func tooLarge(_ what: String, limit: Int, details: [String: ParsedJSON]) -> ContractError {
        var details = details
        details["limit"] = .number(Double(limit))
        return ContractError(
            .resultTooLarge,
            "\(what), which does not fit in one message of at most \(limit) bytes even alone; ask for fewer outFields "
                + "or no geometry, or raise the producer's message.max.bytes",
            retryable: false, details: .object(details))
    }
}

/// Items `start..<end` of one layer, in one part.
struct ResultSegment: Hashable, Sendable {
    var layer: Int
    var start: Int
    var end: Int
}
