import FeatureQuerySupport
import Kafka
import Logging
import ServiceLifecycle
import Synchronization

extension FeatureQueryClient {
    /// How long looking up the outcome topics' partitions and start offsets may take.
    static let lookupTimeout: Duration = .seconds(15)

    /// Reads outcomes and publishes jobs until graceful shutdown (or cancellation); then every waiting call
    /// ends with ``FeatureQueryError/Code/shutdown``.
    ///
    /// Throws when the outcome topics cannot be found or read: the client cannot work then, and its waiting
    /// calls end with that error. A client that does not read outcomes only runs its producer.
    /// `@concurrent`: the reading loop runs off the caller's actor, whoever starts it.
    @concurrent public func run() async throws {
        do {
            try await withGracefulShutdownHandler {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { try await self.producer.run() }
                    if let reader {
                        try await startReading(reader)
                        group.addTask { try await reader.run() }
                        group.addTask { try await self.readOutcomes(reader) }
                    } else {
                        execute(state.withLock {
                            $0.readerStopped(FeatureQueryError(
                                .notReading, "this client was configured not to read outcomes (readsOutcomes: false)",
                                isFatal: true))
                        })
                    }
                    for await publication in publications {
                        group.addTask { await self.publish(publication) }
                    }
                    stopClients()
                }
            } onGracefulShutdown: {
                self.shutdown()
            }
        } catch {
            execute(state.withLock { $0.readerStopped(Self.readerError(error)) })
            stopClients()
            throw error
        }
        shutdown()
    }

    /// Fixes the reader's start (where the topics end now) and lets waiting calls publish.
    private func startReading(_ reader: KafkaPartitionReader) async throws {
        let topics = [configuration.resultsTopic, configuration.errorsTopic]
        var partitions = try await reader.partitions(of: topics, timeout: Self.lookupTimeout)
        if let progressTopic = configuration.progressTopic {
            do {
                partitions += try await reader.partitions(of: [progressTopic], timeout: Self.lookupTimeout)
            } catch {
                // Optional, as for the workers: jobs still get their outcomes, without progress.
                logger.info("no progress topic: progress events will not be read", metadata: ["topic": "\(progressTopic)", "error": "\(error)"])
            }
        }
        let offsets = try await reader.startOffsets(
            atOrAfterTimestampMs: WallClock.nowMilliseconds(), of: partitions, timeout: Self.lookupTimeout)
        try reader.assign(offsets)
        logger.debug("reading outcomes", metadata: ["partitions": "\(partitions.count)"])
        execute(state.withLock { $0.readerStarted() })
    }

    private func readOutcomes(_ reader: KafkaPartitionReader) async throws {
        for try await message in reader.messages {
            if message.topic == configuration.progressTopic {
                deliverProgress(message)
                continue
            }
            guard let value = message.value else { continue }
            let header = message.header("request-id")?.stringValue
            execute(state.withLock { $0.received(requestIdHeader: header, value: value) })
        }
        // The reader ended (shutdown): nothing more will be read.
        execute(state.withLock { $0.readerStopped(FeatureQueryError(.shutdown, "the client shut down", isRetryable: true)) })
    }

    private func publish(_ publication: Publication) async {
        do throws(FeatureQueryError) {
            try await send(key: publication.key, value: publication.value, what: "the job")
        } catch {
            execute(state.withLock { $0.publishFailed(requestId: publication.requestId, error) })
        }
    }

    /// Publishes one message on the requests topic and waits for the broker's acknowledgement.
    func send(key: String, value: [UInt8], what: String) async throws(FeatureQueryError) {
        let message = KafkaProducerMessage(topic: configuration.requestsTopic, key: Array(key.utf8), value: value)
        do {
            let report = try await producer.send(message)
            logger.debug(
                "published", metadata: ["topic": "\(report.topic)", "partition": "\(report.partition)", "offset": "\(report.offset)"])
        } catch {
            throw FeatureQueryError(
                .kafka, "\(what) could not be published to \(configuration.requestsTopic): \(error)",
                isRetryable: error.isRetryable, isFatal: error.isFatal)
        }
    }

    /// Ends every call, stops reading and publishing.
    func shutdown() {
        execute(state.withLock { $0.readerStopped(FeatureQueryError(.shutdown, "the client shut down", isRetryable: true)) })
        endAllProgress()
        publicationsContinuation.finish()
        stopClients()
    }

    private func stopClients() {
        reader?.triggerGracefulShutdown()
        producer.triggerGracefulShutdown()
    }

    private static func readerError(_ error: any Error) -> FeatureQueryError {
        if let error = error as? FeatureQueryError { return error }
        if let error = error as? KafkaError {
            return FeatureQueryError(.kafka, "the outcome topics could not be read: \(error)", isRetryable: error.isRetryable, isFatal: true)
        }
        return FeatureQueryError(.shutdown, "the client stopped: \(error)", isRetryable: true, isFatal: true)
    }
}
