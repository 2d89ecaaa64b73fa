/// Why a layer (or a target whose layers could not be listed) has no result, in one shape for every protocol:
/// what went wrong (`code`), for which layer, and whether trying again can help.
public struct FeatureServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable snake_case code. A struct with static members, so engines add codes without breaking callers;
    /// an engine's own codes (`invalid_query`, `http_status`, ...) pass through as they are.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No engine of this worker queries the target's kind.
        public static let unsupportedTarget = Code("unsupported_target")
        /// The query was cancelled by its caller.
        public static let cancelled = Code("cancelled")

        /// Every code an engine of this package may put on a failed layer, whatever its protocol: engines
        /// share these spellings (ArcGIS's own codes are the first set; a test in each engine's suite checks
        /// that its codes are listed here), so the worker's contract can document them without naming an
        /// engine. `invalid_url` and `too_many_layers` are shared with the worker's own rejections.
        public static let layerCodes: [Code] = [
            "invalid_query", "invalid_url", "unsupported_layer", "service_error", "authentication", "forbidden",
            "not_found", "http_status", "malformed_response", "missing_object_id", "limit_exceeded", "transport",
            "geometry_conversion", "too_many_layers", "cancelled", "unsupported_target",
        ].map { Code(rawValue: $0) }
    }

    public var code: Code
    /// A sentence a person can act on; it names the layer.
    public var message: String
    /// The layer (or service) URL the error belongs to, without query parameters or tokens.
    public var layer: String
    /// Whether the same request may succeed later (timeouts, 5xx, 429).
    public var isRetryable: Bool
    /// The HTTP status, where one was received.
    public var httpStatus: Int?
    /// The service's own error code, where its body carried one.
    public var serviceCode: Int?
    /// The service's error details, or extra facts (the transport's error code).
    public var details: [String]
    /// How long the service asked us to wait (`Retry-After`), if it did.
    public var retryAfter: Duration?

    public init(
        _ code: Code, _ message: String, layer: String, isRetryable: Bool = false, httpStatus: Int? = nil,
        serviceCode: Int? = nil, details: [String] = [], retryAfter: Duration? = nil
    ) {
        self.code = code
        self.message = message
        self.layer = layer
        self.isRetryable = isRetryable
        self.httpStatus = httpStatus
        self.serviceCode = serviceCode
        self.details = details
        self.retryAfter = retryAfter
    }

    public var description: String { "FeatureServiceError(\(code)): \(message)" }

    /// The answer for a target no engine here queries.
    public static func unsupported(_ target: ServiceTarget) -> FeatureServiceError {
        FeatureServiceError(
            .unsupportedTarget, "\(target.url): this worker queries no \(target.kind) targets", layer: target.url)
    }
}
