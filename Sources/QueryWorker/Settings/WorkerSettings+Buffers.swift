extension WorkerSettings {
    /// The bounds of the two queues whose size would otherwise follow the topic's backlog or Kafka's mood, not
    /// the work in flight: the requests librdkafka fetches ahead of the worker, and the outcome messages waiting
    /// for Kafka.
    ///
    /// librdkafka's own defaults fetch up to 100,000 messages or 64 MiB ahead, so a worker joining a topic with
    /// 100,000 requests waiting read all of them into memory (about 80 MiB) before running one; and let up to
    /// 256 MiB of outcomes queue while Kafka is slow. The read-ahead must still outlast librdkafka 2.0.2's pause
    /// after it finds the queue at a bound (`fetch.error.backoff.ms`, 500 ms) at the worker's full rate, or the
    /// worker starves between fetches: 10,000 requests or 4 MiB is a few thousand requests at several thousand
    /// per second, for about 10 MB. Measured in `Benchmarks/run-worker-benchmark.sh --only memory` and
    /// `--only throughput` (docs/performance/README.md, "Memory").
    package struct Buffers: Sendable, Hashable {
        /// Requests librdkafka fetches ahead of the worker (`queued.min.messages`), all assigned partitions
        /// together: it fetches again only while fewer are waiting, and one fetch response may add up to
        /// ``readAheadBytes``.
        package var readAheadMessages = 10_000
        /// Bytes of requests librdkafka fetches ahead (`queued.max.messages.kbytes`), all partitions together;
        /// also the most one fetch response brings (`fetch.max.bytes`, which librdkafka derives from it, never
        /// below its `message.max.bytes`).
        package var readAheadBytes = 4 << 20
        /// Outcome messages queued for Kafka at most (`queue.buffering.max.messages`); publishing waits for room.
        package var producerQueueMessages = 10_000
        /// Bytes of outcome messages queued for Kafka at most (`queue.buffering.max.kbytes`); publishing waits
        /// for room. At least one result part (``Limits/maxResultBytes`` + ``Limits/messageOverhead``) must fit,
        /// twice when left at its default.
        package var producerQueueBytes = 32 << 20
        package init() {}
    }
}
