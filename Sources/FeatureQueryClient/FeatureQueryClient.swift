import FeatureQuerySupport
import Kafka
public import Logging
public import ServiceLifecycle
import Synchronization

/// Publishes feature-query jobs to the workers' Kafka topic and returns their outcomes.
///
/// One producer and one outcome reader serve every call: the reader joins no consumer group (it is given every
/// partition of the results and errors topics) and starts where the topics end when ``run()`` begins, resolved
/// to offsets before any job is published, so no outcome of a job of this client can be missed, however fast
/// the worker, and no hour-old outcome of a production topic is read. Run the client in a `ServiceGroup` (or
/// call ``run()`` in a task of your own); calls made before it reads wait for it.
public final class FeatureQueryClient: Service, Sendable {
    typealias Waiter = CheckedContinuation<Result<QueryOutcome, FeatureQueryError>, Never>
    typealias Machine = StateMachine<Waiter, Publication>

    /// A job's message as published: keyed by its taskId, as the contract asks.
    struct Publication: Sendable {
        var requestId: String
        var key: String
        var value: [UInt8]
    }

    public let configuration: Configuration
    /// Reads what workers stored for large layers (``QueryOutcome/LayerResult/location``); its HTTP client starts at
    /// the first fetch, and works whether or not ``run()`` runs.
    public let storedResults: StoredResultReader
    let logger: Logger
    let producer: KafkaProducer
    /// The outcome reader; `nil` for a client that only publishes (``Configuration/readsOutcomes``).
    let reader: KafkaPartitionReader?
    let validator = JobValidator()
    let state: Mutex<Machine>
    /// The streams of ``progress(of:)``, by requestId.
    let progressListeners = Mutex(ProgressSubscriptions<AsyncStream<QueryProgress>.Continuation>())
    /// Jobs the state machine released for publishing; ``run()`` publishes them.
    let publications: AsyncStream<Publication>
    let publicationsContinuation: AsyncStream<Publication>.Continuation

    /// A client for `configuration`, logging to the caller's `logger` (the library makes none of its own, so its
    /// lines go where the service's go). Nothing connects until ``run()``.
    public init(configuration: Configuration, logger: Logger) throws(FeatureQueryError) {
        self.configuration = configuration
        self.logger = logger
        storedResults = StoredResultReader(logger: logger)
        let client = KafkaClientConfiguration(
            bootstrapServers: configuration.bootstrapServers, clientID: configuration.clientID,
            additionalProperties: configuration.kafkaProperties)
        var readerClient = client
        readerClient.additionalProperties["isolation.level"] = configuration.readCommitted ? "read_committed" : "read_uncommitted"
        do {
            // No linger: a caller waits for each job, and batching would only delay it.
            producer = try KafkaProducer(
                configuration: KafkaProducerConfiguration(
                    client: client, linger: .zero, messageTimeout: configuration.publishTimeout),
                logger: logger)
            reader = configuration.readsOutcomes
                ? try KafkaPartitionReader(client: readerClient, fetchWaitMax: configuration.fetchWaitMax, logger: logger)
                : nil
        } catch {
            throw FeatureQueryError(.kafka, "the Kafka clients could not be created: \(error)", isFatal: true)
        }
        state = Mutex(Machine(maxInFlight: configuration.maxInFlight))
        (publications, publicationsContinuation) = AsyncStream.makeStream()
    }

    /// Checks `job` as a worker would, without publishing it: the message value, or the worker's rejection.
    public func validate(_ job: QueryJob) throws(FeatureQueryError) {
        _ = try validator.check(job)
    }

    /// Runs the effects an event of the state machine returned, outside its lock.
    func execute(_ effects: [Machine.Effect]) {
        for effect in effects {
            switch effect {
            case .publish(_, let publication):
                publicationsContinuation.yield(publication)
            case .resume(let waiter, let result):
                waiter.resume(returning: result)
            }
        }
    }
}
