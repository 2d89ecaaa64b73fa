import Testing
import W3CTraceContext

import TraceExport

/// The ids the worker mints for requests that arrive without a trace come from a seeded fast generator, not a
/// system call each: they must still be distinct and never the all-zero id W3C Trace Context calls invalid.
@Suite("Tracing: minted ids")
struct TraceIDSourceTests {
    @Test func mintedIdsAreDistinctAndNeverNull() {
        let traces = (0..<10_000).map { _ in TraceIDSource.traceID() }
        let spans = (0..<10_000).map { _ in TraceIDSource.spanID() }
        #expect(Set(traces.map(\.description)).count == traces.count)
        #expect(Set(spans.map(\.description)).count == spans.count)
        #expect(!traces.contains(TraceID.null))
        #expect(!spans.contains(SpanID.null))
    }
}
