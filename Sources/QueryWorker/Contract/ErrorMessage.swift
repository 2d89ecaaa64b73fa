import FeatureQuerySupport
import Kafka
import RequestContract

/// The outcome of a request that has no result, as published on the errors topic: rejected, failed,
/// superseded, cancelled or expired. Also the answer to a message that is no valid request or cancel.
struct ErrorMessage: Sendable, Hashable {
    /// Why the request ended without a result.
    enum Status: String, Sendable, Hashable {
        /// The message is not a valid request (or cancel). Not retryable as it is.
        case rejected
        /// The query ran and could not produce a result (every layer failed, the result cannot be published).
        case failed
        /// A newer request for the same task replaced it (``ErrorMessage/supersededBy`` names it).
        case superseded
        /// A cancel message for its task stopped it.
        case cancelled
        /// Its deadline passed before it finished.
        case expired
    }

    /// The request's id, when it could be read.
    var requestId: String?
    /// The request's task id, when it could be read.
    var taskId: String?
    var status: Status
    var error: ContractError
    /// The request that superseded this one; set exactly when ``status`` is `superseded`.
    var supersededBy: String?
    /// Where the request message was read.
    var source: MessageSource
    var worker: String
    /// When the worker received the request, in milliseconds since the epoch.
    var receivedAt: Int64
    /// When the worker decided this outcome, in milliseconds since the epoch.
    var finishedAt: Int64

    init(
        requestId: String?, taskId: String?, status: Status, error: ContractError, supersededBy: String? = nil,
        source: MessageSource, worker: String, receivedAt: Int64, finishedAt: Int64
    ) {
        self.requestId = requestId
        self.taskId = taskId
        self.status = status
        self.error = error
        self.supersededBy = supersededBy
        self.source = source
        self.worker = worker
        self.receivedAt = receivedAt
        self.finishedAt = finishedAt
    }

    /// The answer to a rejected message.
    static func rejected(
        _ rejection: RejectedRequest, source: MessageSource, worker: String, receivedAt: Int64, finishedAt: Int64
    ) -> ErrorMessage {
        ErrorMessage(
            requestId: rejection.requestId, taskId: rejection.taskId, status: .rejected, error: rejection.error,
            source: source, worker: worker, receivedAt: receivedAt, finishedAt: finishedAt)
    }

    /// The answer to `request` when `newer` replaced it: status `superseded`, code `superseded`.
    static func superseded(
        _ request: QueryRequest, by newer: String, source: MessageSource, worker: String, finishedAt: Int64
    ) -> ErrorMessage {
        ErrorMessage(
            requestId: request.requestId, taskId: request.taskId, status: .superseded,
            error: ContractError(
                .superseded, "request \(request.requestId) was superseded by \(newer) for task \(request.taskId)"),
            supersededBy: newer, source: source, worker: worker, receivedAt: request.receivedAt, finishedAt: finishedAt)
    }

    /// The answer to `request` when it was stopped: by a cancel message for its task (`cancel_requested`,
    /// the default), by the worker shutting down (`shutdown`) or by its partition moving (`partition_revoked`);
    /// the last two are retryable. The code is the reason's own (``CancelReason/code``).
    static func cancelled(
        _ request: QueryRequest, reason: CancelReason = .requested, source: MessageSource, worker: String,
        finishedAt: Int64
    ) -> ErrorMessage {
        let message = switch reason {
        case .requested: "request \(request.requestId) was cancelled by a cancel message for task \(request.taskId)"
        case .shutdown: "request \(request.requestId) was stopped because the worker is shutting down; send it again"
        case .partitionRevoked:
            "request \(request.requestId) was stopped because its partition moved to another worker; send it again"
        }
        return ErrorMessage(
            requestId: request.requestId, taskId: request.taskId, status: .cancelled,
            error: ContractError(reason.code, message, retryable: reason != .requested),
            source: source, worker: worker, receivedAt: request.receivedAt, finishedAt: finishedAt)
    }

    /// The answer to `request` when its deadline passed: status `expired`, code `deadline_exceeded`,
    /// retryable (a new request with a later deadline may succeed).
    static func expired(
        _ request: QueryRequest, source: MessageSource, worker: String, finishedAt: Int64
    ) -> ErrorMessage {
        let deadline = request.deadline.map { RFC3339.string(fromMilliseconds: $0) } ?? "none"
        return ErrorMessage(
            requestId: request.requestId, taskId: request.taskId, status: .expired,
            error: ContractError(
                .deadlineExceeded, "request \(request.requestId) passed its deadline \(deadline) before it finished",
                retryable: true, details: .object(["deadline": .string(deadline)])),
            source: source, worker: worker, receivedAt: request.receivedAt, finishedAt: finishedAt)
    }

    /// The answer to `request` when its message was older than `maxRequestAge`: status `expired`, code
    /// `request_too_old`, retryable (the same request sent again is fresh), with the age and the limit.
    static func tooOld(
        _ request: QueryRequest, age: RequestAge, source: MessageSource, worker: String, finishedAt: Int64
    ) -> ErrorMessage {
        ErrorMessage(
            requestId: request.requestId, taskId: request.taskId, status: .expired,
            error: ContractError(
                .requestTooOld,
                "request \(request.requestId) waited \(age.ageMs) ms in Kafka, longer than this worker's maxRequestAge "
                    + "(\(age.limitMs) ms); it was not run. Send it again if it is still wanted",
                retryable: true,
                details: .object(["ageMs": .number(Double(age.ageMs)), "limitMs": .number(Double(age.limitMs))])),
            source: source, worker: worker, receivedAt: request.receivedAt, finishedAt: finishedAt)
    }

    /// The message key: the taskId; else the request message's own key, so the answer follows the message.
    var key: [UInt8]? { taskId.map { Array($0.utf8) } ?? source.key }

    /// `request-id` and `task-id`, each when known.
    var headers: [KafkaHeader] {
        var headers: [KafkaHeader] = []
        if let requestId { headers.append(KafkaHeader(key: "request-id", string: requestId)) }
        if let taskId { headers.append(KafkaHeader(key: "task-id", string: taskId)) }
        return headers
    }

    /// The message to publish on `topic`.
    func producerMessage(topic: String) -> KafkaProducerMessage {
        KafkaProducerMessage(topic: topic, key: key, value: encoded(), headers: headers)
    }

    /// The message value: JSON, members in the order of the schema.
    func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 512 + error.message.utf8.count)
        writer.raw("{")
        if let requestId {
            writer.key("requestId")
            writer.string(requestId)
            writer.comma()
        }
        if let taskId {
            writer.key("taskId")
            writer.string(taskId)
            writer.comma()
        }
        writer.key("status")
        writer.string(status.rawValue)
        writer.comma()
        writer.key("error")
        error.write(to: &writer)
        if let supersededBy {
            writer.comma()
            writer.key("supersededBy")
            writer.string(supersededBy)
        }
        writer.comma()
        writer.key("source")
        source.write(to: &writer)
        writer.comma()
        writer.key("worker")
        writer.string(worker)
        writer.comma()
        writer.key("receivedAt")
        writer.timestamp(milliseconds: receivedAt)
        writer.comma()
        writer.key("finishedAt")
        writer.timestamp(milliseconds: finishedAt)
        writer.raw("}")
        return writer.bytes
    }
}

/// Where a request message was read: enough to find it again when its ids could not be read.
struct MessageSource: Sendable, Hashable {
    var topic: String
    var partition: Int32
    var offset: Int64
    /// The key bytes; `nil` when the message had none.
    var key: [UInt8]?
    /// The message's trace (its span, its outcomes' trace and correlation headers); `nil` for sources not read
    /// by the worker's message loop. Never written into the contract's JSON.
    var trace: RequestTrace?

    init(topic: String, partition: Int32, offset: Int64, key: [UInt8]?) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
    }

    /// The source of a consumed message.
    init(_ message: KafkaConsumerMessage) {
        self.init(topic: message.topic, partition: message.partition, offset: message.offset, key: message.key)
    }

    /// `{"topic":…,"partition":…,"offset":…,"key":…}`: the key as text when it is UTF-8, else base64 with
    /// `"keyEncoding":"base64"`, `null` when absent.
    func write(to writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("topic")
        writer.string(topic)
        writer.comma()
        writer.key("partition")
        writer.integer(Int64(partition))
        writer.comma()
        writer.key("offset")
        writer.integer(offset)
        writer.comma()
        writer.key("key")
        if let key {
            if let text = String(validating: key, as: UTF8.self) {
                writer.string(text)
            } else {
                writer.string(Base64.encode(key))
                writer.comma()
                writer.key("keyEncoding")
                writer.string("base64")
            }
        } else {
            writer.raw("null")
        }
        writer.raw("}")
    }
}
