package import FeatureService

/// One layer's way to the request's ``ResultStore`` (issue 31): the life both engines share, so the threshold
/// switch, the open/append/finish order and the abort on failure are written once.
///
/// A layer starts **inline** (the engine collects as it always did) unless the store takes every layer
/// (``StoreDelivery/always``), in which case it starts **streaming**. While inline, the engine reports what it
/// newly kept (``absorb(_:handOver:)``); the report that takes what is held past the threshold (bytes, or the
/// most features a result may hold in memory) opens a writer, hands it everything the engine held, and from then
/// on each report goes straight to the writer: the engine keeps only what deduplication needs. The layer ends
/// **finished** (``finish()`` gave the location) or **aborted** (``abort()``: nothing incomplete is left).
///
/// A value type whose decisions need no I/O; the only effects are the writer's, so a recording writer tests it.
/// Engines run it inside ``withStoredLayer(_:_:)``, which aborts on every path that throws.
package struct StoredLayerStream: Sendable {
    /// Where the layer is in its life.
    package enum Phase: Sendable, Hashable {
        /// Collected in memory, published inline unless it grows past the threshold.
        case inline
        /// A writer is open; what the engine keeps goes to it.
        case streaming
        /// The writer finished: the layer is in the store.
        case finished
        /// The writer was abandoned (or never opened for a failed layer).
        case aborted
    }

    /// The request's store; nil when the request may not store (the stream then stays inline and does nothing).
    package let store: (any ResultStore)?
    package let layer: ProgressLayer
    package let kind: StoredSelection.Kind
    /// An inline layer holding more items than this is streamed whatever its bytes: the most a result may hold
    /// in memory (`maxFeaturesInMemory`) is what a store exists to lift. nil: no count switch (ids).
    package let maxInlineItems: Int?

    package private(set) var phase: Phase = .inline
    /// What the engine holds inline: the bytes of the items it kept, as they will be published.
    package private(set) var heldBytes = 0
    package private(set) var heldItems = 0
    /// Items handed to the writer so far.
    package private(set) var storedItems = 0
    private var writer: (any StoredLayerWriter)?

    package init(store: (any ResultStore)?, layer: ProgressLayer, kind: StoredSelection.Kind, maxInlineItems: Int? = nil) {
        self.store = store
        self.layer = layer
        self.kind = kind
        self.maxInlineItems = maxInlineItems
    }

    /// Whether the request has a store at all: inline memory limits (``maxInlineItems``) then do not fail the
    /// layer, they send it to the store.
    package var hasStore: Bool { store != nil }
    package var isStreaming: Bool { phase == .streaming }

    /// Whether holding `bytes` in `items` (everything held, not a page) must send the layer to the store.
    package func passesThreshold(bytes: Int, items: Int) -> Bool {
        guard let store else { return false }
        switch store.delivery {
        case .always:
            return true
        case .above(let thresholdBytes):
            if bytes > thresholdBytes { return true }
            if let maxInlineItems, items > maxInlineItems { return true }
            return false
        }
    }

    /// Opens the writer at once when the store takes every layer (``StoreDelivery/always``); else does nothing.
    /// Call before the first page, so that no page is held in memory for nothing.
    package mutating func begin() async throws(FeatureServiceError) {
        guard phase == .inline, let store, store.delivery == .always else { return }
        try await open(store)
    }

    /// Takes the items the engine newly kept from one page (after deduplication and any re-check), in arrival
    /// order. Inline: counts them and, when the layer passes the threshold, opens the writer and appends what
    /// `handOver` gives (everything the engine held, these items included; the engine then stops holding).
    /// Streaming: appends them. Suspends while the store is behind.
    package mutating func absorb(
        _ items: [ArraySlice<UInt8>], handOver: () -> [ArraySlice<UInt8>]
    ) async throws(FeatureServiceError) {
        switch phase {
        case .streaming:
            try await append(items)
        case .inline:
            // Nothing kept (a page of repeats, or a selection the worker computes and stores whole): no switch.
            guard !items.isEmpty else { return }
            heldBytes += Self.bytes(of: items)
            heldItems += items.count
            guard let store, passesThreshold(bytes: heldBytes, items: heldItems) else { return }
            try await open(store)
            try await append(handOver())
            heldBytes = 0
            heldItems = 0
        case .finished, .aborted:
            // A page after the layer ended: an engine bug, failed as the store would fail it (nothing is half-written).
            throw FeatureServiceError(.storeUnavailable, "\(layer.url): a stored layer took items after it ended", layer: layer.url)
        }
    }

    /// Appends items to the open writer (call only while streaming; used by engines that order pages first).
    package mutating func append(_ items: [ArraySlice<UInt8>]) async throws(FeatureServiceError) {
        guard let writer, phase == .streaming else {
            throw FeatureServiceError(.storeUnavailable, "\(layer.url): items appended to a stored layer without a writer", layer: layer.url)
        }
        guard !items.isEmpty else { return }
        try await writer.append(items)
        storedItems += items.count
    }

    /// For a selection collected whole (ids): stores `items` (each written by `encode`, a batch at a time, so a
    /// large selection is never encoded whole) when the store takes every layer or their encoded `bytes` pass
    /// the threshold, and says where; nil when the layer stays inline.
    package mutating func storeAll<Item>(
        _ items: [Item], bytes: Int, encode: (Item) -> ArraySlice<UInt8>
    ) async throws(FeatureServiceError) -> StoredSelection? {
        guard let store, phase == .inline, passesThreshold(bytes: bytes, items: 0) else { return nil }
        try await open(store)
        var start = items.startIndex
        while start < items.endIndex {
            let end = min(start + Self.batch, items.endIndex)
            try await append(items[start..<end].map(encode))
            start = end
        }
        return try await finish()
    }

    /// Completes the object and says where it is; nil for a layer that stayed inline. A cancelled task never
    /// completes an object (its pages may have ended early): it throws `cancelled`, and the caller aborts.
    package mutating func finish() async throws(FeatureServiceError) -> StoredSelection? {
        guard phase == .streaming, let writer else { return nil }
        if Task.isCancelled {
            throw FeatureServiceError(.cancelled, "\(layer.url): the query was cancelled while its layer was stored", layer: layer.url)
        }
        let stored = try await writer.finish()
        phase = .finished
        self.writer = nil
        return stored
    }

    /// Abandons the writer, if one is open (safe to call more than once, and for a layer that stayed inline).
    package mutating func abort() async {
        guard let writer else { return }
        self.writer = nil
        phase = .aborted
        await writer.abort()
    }

    private mutating func open(_ store: any ResultStore) async throws(FeatureServiceError) {
        writer = try await store.open(layer, kind: kind)
        phase = .streaming
    }

    /// Items per append when a whole selection is stored at once.
    static let batch = 8_192

    package static func bytes(of items: [ArraySlice<UInt8>]) -> Int { items.reduce(0) { $0 + $1.count } }
}

extension StoredLayerStream {
    /// An object id as the JSON number a stored `ids` object holds.
    package static func json(_ id: Int64) -> ArraySlice<UInt8> { Array(String(id).utf8)[...] }

    /// The bytes of ``json(_:)`` without writing it: a selection's size is known before it is encoded.
    package static func jsonBytes(_ id: Int64) -> Int {
        var digits = id < 0 ? 2 : 1
        var rest = id.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }
}

/// Runs `body` with the layer's stream and makes sure no writer outlives a failure: any error thrown (the
/// writer's, the service's, a limit, a cancellation) aborts the writer before it is rethrown, and a body that
/// returns without finishing an open writer (a path that answered inline after all) aborts it too.
package func withStoredLayer<T>(
    _ stream: StoredLayerStream, _ body: (inout StoredLayerStream) async throws -> T
) async throws -> T {
    var stream = stream
    do {
        let result = try await body(&stream)
        if stream.isStreaming { await stream.abort() }
        return result
    } catch {
        await stream.abort()
        throw error
    }
}
