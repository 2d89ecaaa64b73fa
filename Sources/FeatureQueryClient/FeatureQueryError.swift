/// Why a call of ``FeatureQueryClient`` did not produce an outcome, or why the worker refused or failed a job.
///
/// One type for both sides so that a caller branches on one thing: ``code`` is the contract's error code
/// (`invalid_where`, `host_not_allowed`, `deadline_exceeded`, … in docs/contract/README.md) when the worker
/// decided, or one of the client's own codes (``Code/timeout``, ``Code/shutdown``, …) when the client did.
/// ``isRetryable`` says whether sending the same job again may succeed; ``isFatal`` whether the client itself
/// can no longer work (every later call will fail the same way until a new client runs).
public struct FeatureQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An error code: the contract's codes pass through as they are, so a code a newer worker adds is
    /// still readable (judge it by ``FeatureQueryError/isRetryable``).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as published (`invalid_where`) or the client's own (`client_timeout`).
        public let rawValue: String
        /// A code by its text, to match a contract code the client names no member for.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No outcome arrived within the call's timeout (the job may still run; its outcome is then dropped).
        public static let timeout = Code(rawValue: "client_timeout")
        /// The calling task was cancelled while it waited; the job was not cancelled at the worker.
        public static let callCancelled = Code(rawValue: "client_call_cancelled")
        /// The client shut down (or its outcome reader stopped) before the outcome arrived.
        public static let shutdown = Code(rawValue: "client_shutdown")
        /// Kafka refused to take the message or to read the outcome topics.
        public static let kafka = Code(rawValue: "client_kafka")
        /// The job could not be turned into the contract's JSON.
        public static let encoding = Code(rawValue: "client_encoding")
        /// Another call of this client waits for the same requestId.
        public static let duplicateRequest = Code(rawValue: "client_duplicate_request")
        /// The client was configured not to read outcomes (``FeatureQueryClient/Configuration/readsOutcomes``).
        public static let notReading = Code(rawValue: "client_not_reading")
        /// The outcome messages were not the contract's JSON.
        public static let malformedOutcome = Code(rawValue: "client_malformed_outcome")
    }

    /// What went wrong, for matching.
    public var code: Code
    /// What went wrong, for a person: the worker's message for a worker's error.
    public var message: String
    /// Whether the same job sent again may succeed.
    public var isRetryable: Bool
    /// Whether the client can serve no further calls.
    public var isFatal: Bool

    package init(_ code: Code, _ message: String, isRetryable: Bool = false, isFatal: Bool = false) {
        self.code = code
        self.message = message
        self.isRetryable = isRetryable
        self.isFatal = isFatal
    }

    public var description: String { "FeatureQueryError(\(code)): \(message)" }
}
