import Kafka
import TraceExport
import Tracing
import RequestContract

extension RequestTrace {
    /// What the worker made of the message (decoded ids, run started or shared), and the span's end when no
    /// outcome will follow: a cancel, a duplicate, a message of a partition not held.
    ///
    /// A request sharing another's run (same task, same work) has no layer or HTTP spans of its own: they are
    /// under the span of the request that started the run; both spans carry `query_worker.run`, which joins
    /// them. A superseded request's span ends with its `superseded` outcome; the newer request's run is under
    /// the newer request's span.
    func received(_ arrival: WorkerCore.StateMachine.Arrival, _ receipt: WorkerCore.StateMachine.Receipt) {
        if span.isRecording { describe(arrival, receipt) }
        switch receipt {
        case .ignored, .duplicate, .cancel:
            span.end()
        case .rejected, .started, .shared, .answeredWithoutRun:
            if case .cancel = arrival { span.end() }
        }
    }

    private func describe(_ arrival: WorkerCore.StateMachine.Arrival, _ receipt: WorkerCore.StateMachine.Receipt) {
        span.setAttributes { attributes in
            switch arrival {
            case .query(let request, _), .tooOld(let request, _, _):
                attributes.set("query_worker.request_id", request.requestId)
                attributes.set("query_worker.task_id", request.taskId)
            case .cancel(let taskId):
                attributes.set("query_worker.task_id", taskId)
                attributes.set("query_worker.message", "cancel")
            case .rejected(let rejection, _, _):
                if let requestId = rejection.requestId { attributes.set("query_worker.request_id", requestId) }
            }
            switch receipt {
            case .started(let run): attributes.set("query_worker.run", Int(truncatingIfNeeded: run.rawValue))
            case .shared(let run):
                attributes.set("query_worker.run", Int(truncatingIfNeeded: run.rawValue))
                attributes.set("query_worker.run.shared", true)
            case .ignored: attributes.set("query_worker.receipt", "ignored")
            case .duplicate: attributes.set("query_worker.receipt", "duplicate")
            case .rejected, .cancel, .answeredWithoutRun: break
            }
        }
    }

    /// The outcome was delivered: the span ends with its status (`query_worker.outcome.status`); `failed`,
    /// `rejected` and `expired` are errors (`error.type` = the contract's error code), `superseded` and
    /// `cancelled` are not (the client asked for them).
    func delivered(_ message: OutcomeMessage) {
        if span.isRecording {
            var failure: String?
            if case .error(let error) = message {
                switch error.status {
                case .failed, .rejected, .expired: failure = error.error.code.rawValue
                case .superseded, .cancelled: break
                }
            }
            span.setAttributes { attributes in
                attributes.set("query_worker.outcome.status", message.status)
                if let failure { attributes.set("error.type", failure) }
            }
            if failure != nil { span.setStatus(SpanStatus(code: .error)) }
        }
        span.end()
    }

    /// The outcome was given up on (left for the partition's next owner): the span ends as an error.
    func abandoned(_ failure: KafkaError) {
        if span.isRecording {
            span.setAttributes { $0.set("error.type", "\(failure.code)") }
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }
}

extension MessageSource {
    /// The source of a consumed message, with its trace.
    init(_ message: KafkaConsumerMessage, trace: RequestTrace) {
        self.init(message)
        self.trace = trace
    }
}
