import EngineExecution
import InMemoryTracing
import Testing
import Tracing

/// Work done for a request whose span does not record (``UnrecordedTrace``) starts no layer span; work without
/// that mark starts one as before.
@Suite("Tracing: unrecorded requests")
struct UnrecordedTraceTests {
    @Test func aLayerOfAnUnrecordedRequestStartsNoSpan() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            let marked = try await ServiceContext.withValue(UnrecordedTrace.context) {
                try await EngineSpans.layer("https://h/a/FeatureServer/0", engine: "arcgis") { UnrecordedTrace.isCurrent }
            }
            #expect(marked, "the layer's work sees the mark (its HTTP exchanges start no span either)")
            #expect(tracer.finishedSpans.isEmpty)

            let unmarked = try await EngineSpans.layer("https://u:p@h/a/FeatureServer/0?token=x", engine: "arcgis") {
                UnrecordedTrace.isCurrent
            }
            #expect(!unmarked)
            let spans = tracer.finishedSpans
            #expect(spans.map(\.operationName) == ["query layer"])
            #expect(spans.first?.attributes.get("query_worker.engine") == .string("arcgis"))
            #expect(spans.first?.attributes.get("query_worker.layer.url") == .string("https://h/a/FeatureServer/0"))
        }
    }
}
