import Testing
import Tracing
import W3CTraceContext

@testable import TraceExport

/// The queue between ended spans and the exporter: bounded (a full queue drops and counts), and the exporter
/// is woken by a full batch, not by each span.
@Suite("Tracing: the span queue")
struct SpanQueueTests {
    static func span(_ name: String = "s") -> FinishedSpan {
        FinishedSpan(
            context: TraceContext(traceID: TraceIDSource.traceID(), spanID: TraceIDSource.spanID(), flags: .sampled, state: TraceState()),
            parentSpanID: nil, name: name, kind: .internal, startNanoseconds: 1, endNanoseconds: 2, attributes: SpanAttributeList(),
            events: [], links: [], status: nil)
    }

    @Test func aFullQueueDropsAndCountsWhatItCannotHold() {
        let queue = SpanQueue(capacity: 10, batchSize: 4)
        for index in 0..<25 { queue.append(Self.span("s\(index)")) }
        #expect(queue.counts.accepted == 10)
        #expect(queue.counts.dropped == 15)
        let first = queue.take(upTo: 4)
        #expect(first.map(\.name) == ["s0", "s1", "s2", "s3"], "oldest first")
        #expect(queue.take(upTo: 100).count == 6)
        #expect(queue.take(upTo: 100).isEmpty)
    }

    @Test func theWaiterWakesWhenABatchFillsNotBefore() async {
        let queue = SpanQueue(capacity: 100, batchSize: 3)
        await withTaskGroup(of: Void.self) { group in
            let woken = AsyncStream<Void>.makeStream()
            group.addTask {
                #expect(await queue.waitForWake() == false, "woken by the full batch, not asked to send everything")
                woken.continuation.yield()
                woken.continuation.finish()
            }
            queue.append(Self.span())
            queue.append(Self.span())
            // Not woken by two spans: the third fills the batch. (A waiter that has not started waiting yet
            // returns at once when it starts, as the batch is then full: either way it wakes after the third.)
            queue.append(Self.span())
            var iterator = woken.stream.makeAsyncIterator()
            await iterator.next()
            #expect(queue.take(upTo: 10).count == 3)
        }
    }

    @Test func aWakeBeforeTheWaitIsNotLost() async {
        let queue = SpanQueue(capacity: 100, batchSize: 50)
        queue.wake()
        #expect(await queue.waitForWake(), "returns at once: the wake was kept")
        let waiting = Task { await queue.waitForWake() }
        waiting.cancel()
        #expect(await waiting.value, "a cancelled wait returns, asking to send everything")
    }
}
