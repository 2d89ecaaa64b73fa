package import FeatureQuerySupport
package import FeatureService

/// The `error` object of the message contract: what went wrong with a request or one of its layers, as the
/// errors topic and a result's failed layers carry it.
///
/// One shape for every failure the contract reports (a rejected message, a layer the service refused, a
/// superseded run), so a consumer handles errors in one place: it branches on ``code``, shows ``message``
/// to a person and retries only when ``retryable`` says it can help.
package struct ContractError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable error code in snake_case (`invalid_where`).
    ///
    /// A struct with static members rather than an enum, so that adding a code in a later version never
    /// breaks a consumer's exhaustive `switch` (the style of ``FeatureServiceError/Code``). Codes of the
    /// engines (`not_found`, `transport`, ...) pass through unchanged for failed layers.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as it appears in messages.
        package let rawValue: String
        /// A code; prefer the static members.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// A code; prefer the static members.
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        // MARK: Rejections (status `rejected`): the message is not a valid request

        /// The value is not JSON, not UTF-8, absent (a tombstone), or not a JSON object.
        package static let invalidJSON = Code("invalid_json")
        /// A required field is absent.
        package static let missingField = Code("missing_field")
        /// A field has the wrong JSON type (a string where a number belongs, 1.5 where an integer belongs).
        package static let invalidType = Code("invalid_type")
        /// A field has the right type but a value outside its rules (a bad date-time, a negative timeout, an
        /// unknown enum value, an inverted extent, `deadline` together with `timeoutMs`).
        package static let invalidValue = Code("invalid_value")
        /// A field the contract does not define; `details.field` names it.
        package static let unknownField = Code("unknown_field")
        /// More targets than the worker accepts (`maxTargets`, at most the contract's 16).
        package static let tooManyTargets = Code("too_many_targets")
        /// The targets name more layers than the worker queries for one request (`maxLayers`). Status
        /// `rejected` when `layers` lists say so on arrival; `failed` when whole services expand to more.
        package static let tooManyLayers = Code("too_many_layers")
        /// An empty `targets` array.
        package static let noTargets = Code("no_targets")
        /// The message is larger than the worker accepts; checked before it is parsed.
        package static let tooLarge = Code("too_large")
        /// `query.where` is not a valid ArcGIS SQL where clause (syntax; fields are checked per layer later).
        package static let invalidWhere = Code("invalid_where")
        /// `query.namedWhere` names no query the operator configured.
        package static let unknownNamedQuery = Code("unknown_named_query")
        /// The operator allows only named queries, and the request sent a `where` clause.
        package static let freeClausesDisabled = Code("free_clauses_disabled")
        /// A failed layer (not a rejection since contract 1.1): no engine of this worker queries the target's
        /// type (the router's code, passed through).
        package static let unsupportedTarget = Code("unsupported_target")
        /// The request's `credential` names no credential the worker has now (none without a credentials
        /// file; a reload may have removed it).
        package static let unknownCredential = Code("unknown_credential")
        /// The request's `credential` does not cover every target: none of its scopes is a prefix of the
        /// target's URL.
        package static let credentialScopeMismatch = Code("credential_scope_mismatch")
        /// `query.geometry` is not a usable Esri JSON or GeoJSON geometry.
        package static let invalidGeometry = Code("invalid_geometry")
        /// A target URL is not an http(s) URL of the right shape.
        package static let invalidURL = Code("invalid_url")
        /// The message key is not the request's taskId, so the task's messages could reach different workers.
        package static let keyMismatch = Code("key_mismatch")
        /// A target's host is not in the operator's `allowedHosts` (the host policy's code, passed through).
        package static let hostNotAllowed = Code("host_not_allowed")
        /// `query.outSpatialReference` names a spatial reference the worker cannot return results in.
        package static let unsupportedSpatialReference = Code("unsupported_spatial_reference")
        /// `delivery: store` (since 1.3) sent to a worker without a result store (its `resultStore` setting unset).
        package static let storeNotConfigured = Code("store_not_configured")

        // MARK: Outcomes of accepted requests

        /// Status `superseded`: a newer request for the same task replaced this one.
        package static let superseded = Code("superseded")
        /// Status `cancelled`: a cancel message for the task stopped this request.
        package static let cancelRequested = Code("cancel_requested")
        /// Status `cancelled`: the worker shut down before the request finished (send it again).
        package static let shutdown = Code("shutdown")
        /// Status `cancelled`: the request's partition moved to another worker before the request finished.
        package static let partitionRevoked = Code("partition_revoked")
        /// Status `expired`: the request's deadline passed before it finished.
        package static let deadlineExceeded = Code("deadline_exceeded")
        /// Status `expired`: the request waited in Kafka longer than the worker's `maxRequestAge` (by its
        /// message timestamp); it was answered without a query.
        package static let requestTooOld = Code("request_too_old")
        /// Status `failed`: the result cannot be published, even split (one feature exceeds the message limit).
        package static let resultTooLarge = Code("result_too_large")
        /// Status `failed`: every layer failed, with different codes; `details.layers` has each layer's error.
        package static let layersFailed = Code("layers_failed")
        /// Status `failed`: a fault in the worker itself.
        package static let `internal` = Code("internal")
    }

    /// What went wrong, to branch on.
    package var code: Code
    /// A sentence for a person: what is wrong and where (a JSON path such as `query.extent.xmin`).
    package var message: String
    /// Whether sending the same request again may succeed (a timeout, HTTP 503); false for bad input.
    package var retryable: Bool
    /// Extra facts for programs (`{"path": "query.where", "column": 12}`); `nil` for none. An object or array.
    package var details: ParsedJSON?

    /// An error with the contract's fields.
    package init(_ code: Code, _ message: String, retryable: Bool = false, details: ParsedJSON? = nil) {
        self.code = code
        self.message = message
        self.retryable = retryable
        self.details = details
    }

    /// The contract's view of an engine's error: same code and message; `details` carries the layer, the
    /// HTTP status, the service's error code and details, and the requested wait, when there are any.
    package init(_ error: FeatureServiceError) {
        var details: [String: ParsedJSON] = ["layer": .string(error.layer)]
        if let status = error.httpStatus { details["httpStatus"] = .number(Double(status)) }
        if let code = error.serviceCode { details["serviceCode"] = .number(Double(code)) }
        if !error.details.isEmpty { details["serviceDetails"] = .array(error.details.map { .string($0) }) }
        if let wait = error.retryAfter {
            details["retryAfterMs"] = .number(Double(wait.clampedMilliseconds))
        }
        self.init(Code(error.code.rawValue), error.message, retryable: error.isRetryable, details: .object(details))
    }

    package var description: String { "ContractError(\(code)): \(message)" }

    /// The error of a request whose layers all failed: the layers' common error when they share a code (the
    /// usual case: one layer), else ``Code/layersFailed``. Retryable when any layer's error is; `details.layers`
    /// lists every layer's URL and error.
    package static func allLayersFailed(_ failures: [(url: String, error: ContractError)]) -> ContractError {
        let layers = ParsedJSON.array(failures.map { failure in
            .object(["url": .string(failure.url), "error": failure.error.jsonValue])
        })
        let retryable = failures.contains { $0.error.retryable }
        if let first = failures.first, failures.allSatisfy({ $0.error.code == first.error.code }) {
            let message = failures.count == 1
                ? first.error.message : "all \(failures.count) layers failed with \(first.error.code): \(first.error.message)"
            return ContractError(first.error.code, message, retryable: retryable, details: .object(["layers": layers]))
        }
        let codes = failures.map(\.error.code.rawValue).joined(separator: ", ")
        return ContractError(
            .layersFailed, "all \(failures.count) layers failed (\(codes)); details.layers has each layer's error",
            retryable: retryable, details: .object(["layers": layers]))
    }

    /// The error as a JSON value, for nesting it in another error's details.
    package var jsonValue: ParsedJSON {
        var members: [String: ParsedJSON] = [
            "code": .string(code.rawValue), "message": .string(message), "retryable": .bool(retryable),
        ]
        if let details { members["details"] = details }
        return .object(members)
    }
}
