import Foundation

extension StoredResultReader {
    /// `layer` with its stored features or ids fetched and verified, where an inline layer has them:
    /// ``QueryOutcome/LayerResult/featureCollection`` (a GeoJSON FeatureCollection), or
    /// ``QueryOutcome/LayerResult/objectIds`` (ArcGIS) or ``QueryOutcome/LayerResult/featureIds`` (OGC). A layer
    /// without a location is returned as it is; the location stays, so the caller can still tell.
    ///
    /// For layers that fit in memory: one whose stored or decoded size passes `maxBytes` throws
    /// ``FeatureQueryError/Code/storedResultTooLarge`` (stream it with ``items(of:)`` instead). Nothing is returned
    /// before the whole object was checked.
    /// `@concurrent`: the decompression and hashing of up to `maxBytes` run off the caller's actor.
    @concurrent public func resolving(_ layer: QueryOutcome.LayerResult, maxBytes: Int = 256 << 20) async throws(FeatureQueryError)
        -> QueryOutcome.LayerResult
    {
        guard let location = layer.location else { return layer }
        guard location.bytes <= maxBytes else { throw Self.tooLarge(location, maxBytes) }
        var collected: [Data] = []
        var total = 0
        let reading = items(of: location).makeAsyncIterator().reading
        while let item = try await reading.next() {
            total += item.count + 1
            guard total <= maxBytes else { throw Self.tooLarge(location, maxBytes) }
            collected.append(item)
        }
        var resolved = layer
        if location.holdsIds {
            try Self.fill(&resolved, ids: collected, location: location)
        } else {
            resolved.featureCollection = Self.featureCollection(collected, capacity: total)
        }
        return resolved
    }

    /// `{"type":"FeatureCollection","features":[…]}` of the items, as an inline layer's features are given.
    static func featureCollection(_ features: [Data], capacity: Int) -> Data {
        var collection = Data(#"{"type":"FeatureCollection","features":["#.utf8)
        collection.reserveCapacity(capacity + 64)
        for (index, feature) in features.enumerated() {
            if index > 0 { collection.append(UInt8(ascii: ",")) }
            collection.append(feature)
        }
        collection.append(contentsOf: Array("]}".utf8))
        return collection
    }

    /// The ids as an inline layer has them: ArcGIS object ids (integers), or OGC feature ids (integers or strings)
    /// for a layer of a collection.
    static func fill(_ layer: inout QueryOutcome.LayerResult, ids: [Data], location: StoredResultLocation) throws(FeatureQueryError) {
        var identifiers: [Query.FeatureID] = []
        identifiers.reserveCapacity(ids.count)
        for id in ids {
            if id.first == UInt8(ascii: "\""), let text = try? JSONDecoder().decode(String.self, from: id) {
                identifiers.append(.string(text))
            } else if let number = Int64(String(decoding: id, as: UTF8.self)) {
                identifiers.append(.integer(number))
            } else {
                throw FeatureQueryError(
                    .storedResultMalformed, "the stored result \(location.url) holds '\(String(decoding: id.prefix(40), as: UTF8.self))', not an id")
            }
        }
        if layer.collection != nil {
            layer.featureIds = identifiers
            return
        }
        var objectIds: [Int64] = []
        objectIds.reserveCapacity(identifiers.count)
        for identifier in identifiers {
            guard case .integer(let number) = identifier else {
                throw FeatureQueryError(.storedResultMalformed, "the stored result \(location.url) holds a string id for an ArcGIS layer")
            }
            objectIds.append(number)
        }
        layer.objectIds = objectIds
    }

    private static func tooLarge(_ location: StoredResultLocation, _ maxBytes: Int) -> FeatureQueryError {
        FeatureQueryError(
            .storedResultTooLarge,
            "the stored result \(location.url) (\(location.bytes) bytes stored, \(location.count) items) is larger than the \(maxBytes) "
                + "bytes allowed in memory: read it with items(of:) or download(_:to:)")
    }
}
