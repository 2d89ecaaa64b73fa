import EngineExecution
import EngineTestSupport
import FeatureService
import Testing

/// The stored layer's life without an engine or a network: inline → streaming → finished/aborted, with a
/// recording writer.
@Suite("StoredLayerStream: the threshold switch and the writer's life")
struct StoredLayerStreamTests {
    let layer = ProgressLayer(url: "https://example.test/layer/0", layerId: 0)

    func items(_ texts: [String]) -> [ArraySlice<UInt8>] { texts.map { Array($0.utf8)[...] } }
    func texts(_ writer: RecordingWriter) async -> [String] { await writer.items.map { String(decoding: $0, as: UTF8.self) } }

    @Test func withoutAStoreTheLayerStaysInlineAndNothingIsWritten() async throws {
        var stream = StoredLayerStream(store: nil, layer: layer, kind: .features, maxInlineItems: 2)
        try await stream.begin()
        try await stream.absorb(items(["a", "b", "c"])) { Issue.record("handed over without a store"); return [] }
        #expect(stream.phase == .inline)
        #expect(!stream.hasStore)
        #expect(try await stream.finish() == nil)
    }

    @Test func alwaysOpensBeforeTheFirstPageAndAppendsEachPage() async throws {
        let store = RecordingResultStore(delivery: .always)
        var stream = StoredLayerStream(store: store, layer: layer, kind: .features)
        try await stream.begin()
        #expect(stream.phase == .streaming)
        try await stream.absorb(items(["a", "b"])) { Issue.record("nothing is held while streaming"); return [] }
        try await stream.absorb(items(["c"])) { [] }
        let stored = try #require(try await stream.finish())
        #expect(stream.phase == .finished)
        #expect(stored.count == 3)
        let writer = try #require(store.writers.first)
        #expect(await texts(writer) == ["a", "b", "c"])
        #expect(await writer.finishes == 1)
        #expect(await writer.aborts == 0)
    }

    @Test func aboveTheThresholdHandsOverWhatIsHeldThenStreams() async throws {
        let store = RecordingResultStore(delivery: .above(thresholdBytes: 4))
        var stream = StoredLayerStream(store: store, layer: layer, kind: .features)
        try await stream.begin()
        #expect(stream.phase == .inline)
        var held = ["aa"]
        try await stream.absorb(items(["aa"])) { Issue.record("2 bytes are below 4"); return [] }
        #expect(stream.phase == .inline)
        #expect(store.writers.isEmpty)
        held += ["bbb"]
        try await stream.absorb(items(["bbb"])) {
            defer { held = [] }
            return items(held)
        }
        #expect(stream.phase == .streaming)
        try await stream.absorb(items(["c"])) { Issue.record("handed over twice"); return [] }
        let stored = try #require(try await stream.finish())
        #expect(stored.count == 3)
        let writer = try #require(store.writers.first)
        #expect(await texts(writer) == ["aa", "bbb", "c"])
    }

    @Test func morePagesThanMemoryHoldsSwitchWhateverTheirBytes() async throws {
        let store = RecordingResultStore(delivery: .above(thresholdBytes: 1_000_000))
        var stream = StoredLayerStream(store: store, layer: layer, kind: .features, maxInlineItems: 2)
        try await stream.absorb(items(["a", "b"])) { [] }
        #expect(stream.phase == .inline)
        try await stream.absorb(items(["c"])) { items(["a", "b", "c"]) }
        #expect(stream.phase == .streaming)
        _ = try await stream.finish()
        #expect(await store.writers.first?.items.count == 3)
    }

    @Test func absorbingNothingOpensNoWriterEvenWhenTheStoreTakesEveryLayer() async throws {
        let store = RecordingResultStore(delivery: .always)
        var stream = StoredLayerStream(store: store, layer: layer, kind: .features)
        try await stream.absorb([]) { Issue.record("nothing to hand over"); return [] }
        #expect(stream.phase == .inline)
        #expect(store.writers.isEmpty)
    }

    @Test func aSmallLayerAboveNothingStaysInline() async throws {
        let store = RecordingResultStore(delivery: .above(thresholdBytes: 100))
        var stream = StoredLayerStream(store: store, layer: layer, kind: .features)
        try await stream.absorb(items(["a"])) { [] }
        #expect(try await stream.finish() == nil)
        #expect(store.writers.isEmpty)
    }

    @Test func aFailingAppendAbortsThroughTheHelperAndNeverFinishes() async throws {
        let store = RecordingResultStore(delivery: .always, failOnAppend: 2, failure: .storeDenied)
        await #expect(throws: FeatureServiceError.self) {
            try await withStoredLayer(StoredLayerStream(store: store, layer: layer, kind: .features)) { stream in
                try await stream.begin()
                try await stream.absorb(items(["a"])) { [] }
                try await stream.absorb(items(["b"])) { [] }
                return try await stream.finish()
            }
        }
        let writer = try #require(store.writers.first)
        #expect(await writer.aborts >= 1)
        #expect(await writer.finishes == 0)
    }

    @Test func anyErrorAbortsAnOpenWriter() async throws {
        struct Boom: Error {}
        let store = RecordingResultStore(delivery: .always)
        await #expect(throws: Boom.self) {
            try await withStoredLayer(StoredLayerStream(store: store, layer: layer, kind: .features)) { stream in
                try await stream.begin()
                try await stream.absorb(items(["a"])) { [] }
                throw Boom()
            }
        }
        #expect(await store.writers.first?.aborts == 1)
        #expect(await store.writers.first?.finishes == 0)
    }

    @Test func aBodyThatAnswersWithoutFinishingAbortsTheWriter() async throws {
        let store = RecordingResultStore(delivery: .always)
        let answer = try await withStoredLayer(StoredLayerStream(store: store, layer: layer, kind: .features)) { stream in
            try await stream.begin()
            return 7
        }
        #expect(answer == 7)
        #expect(await store.writers.first?.aborts == 1)
    }

    @Test func abortIsSafeTwiceAndAfterAnInlineLayer() async throws {
        let store = RecordingResultStore(delivery: .always)
        var stream = StoredLayerStream(store: store, layer: layer, kind: .ids)
        await stream.abort()
        try await stream.begin()
        await stream.abort()
        await stream.abort()
        #expect(stream.phase == .aborted)
        #expect(await store.writers.first?.aborts == 1)
        await #expect(throws: FeatureServiceError.self) { try await stream.absorb(items(["a"])) { [] } }
    }

    @Test func idsCollectedWholeAreStoredAboveTheThresholdAsJSONNumbers() async throws {
        let ids: [Int64] = [1, 22, -333, Int64.max]
        let bytes = ids.reduce(0) { $0 + StoredLayerStream.jsonBytes($1) }
        #expect(bytes == ids.map { String($0).utf8.count }.reduce(0, +))
        let small = RecordingResultStore(delivery: .above(thresholdBytes: bytes))
        var inline = StoredLayerStream(store: small, layer: layer, kind: .ids)
        #expect(try await inline.storeAll(ids, bytes: bytes, encode: StoredLayerStream.json) == nil)
        #expect(small.writers.isEmpty)
        let store = RecordingResultStore(delivery: .above(thresholdBytes: bytes - 1))
        var stream = StoredLayerStream(store: store, layer: layer, kind: .ids)
        let stored = try #require(try await stream.storeAll(ids, bytes: bytes, encode: StoredLayerStream.json))
        #expect(stored.kind == .ids)
        #expect(stored.count == 4)
        let writer = try #require(store.writers.first)
        #expect(await texts(writer) == ids.map { String($0) })
        #expect(writer.kind == .ids)
    }

    @Test func theReorderBufferReleasesPagesInOrder() {
        var buffer = PageReorderBuffer<String>()
        #expect(buffer.put("c", at: 2).isEmpty)
        #expect(buffer.put("b", at: 1).isEmpty)
        #expect(buffer.count == 2)
        #expect(buffer.put("a", at: 0) == ["a", "b", "c"])
        #expect(buffer.count == 0)
        #expect(buffer.put("d", at: 3) == ["d"])
        #expect(buffer.nextIndex == 4)
    }
}
