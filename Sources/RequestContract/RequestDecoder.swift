package import FeatureQuerySupport
package import QueryLanguage

/// Bounds on what one request may cost to read: checked before the work they bound is done.
package struct RequestLimits: Sendable, Hashable {
    /// The largest message value accepted, in bytes, checked before parsing (`too_large`). Default 1 MB, the
    /// usual Kafka `message.max.bytes`.
    package var maxMessageBytes: Int
    /// The most vertices `query.geometry` may have (`invalid_geometry`). Default 100 000.
    package var maxGeometryPositions: Int
    /// The deepest nesting of arrays and objects (`invalid_json`). Default 32: a MultiPolygon needs 7.
    package var maxDepth: Int
    /// The most entries of `targets` (`too_many_targets`): the operator's `maxTargets`, at most the contract's
    /// ``contractMaxTargets``, which the schema states, so a request the worker accepts stays schema-valid.
    package var maxTargets: Int
    /// The most layers a request may name: a layer URL counts one, a service with `layers` counts its list
    /// (`too_many_layers`). A service without `layers` counts one here; what it expands to is bounded by the
    /// engine (`ArcGISEngineConfiguration.maxLayersPerQuery`, set through `StandardEngines.Limits`), which knows the service's layer list.
    package var maxLayers: Int

    /// The contract's limit on `targets` (the schema's `maxItems`).
    package static let contractMaxTargets = 16
    /// The most sublayer ids one target may list (the schema's `maxItems` of `layers`).
    package static let maxLayersPerTarget = 100
    /// The most layers a request can name within the contract: every target a service listing the most layers.
    package static let contractMaxLayers = contractMaxTargets * maxLayersPerTarget

    /// Limits with the defaults described on each property.
    package init(
        maxMessageBytes: Int = 1_000_000, maxGeometryPositions: Int = 100_000, maxDepth: Int = 32,
        maxTargets: Int = RequestLimits.contractMaxTargets, maxLayers: Int = 100
    ) {
        self.maxMessageBytes = max(0, maxMessageBytes)
        self.maxGeometryPositions = max(1, maxGeometryPositions)
        self.maxDepth = max(4, maxDepth)
        self.maxTargets = min(max(1, maxTargets), Self.contractMaxTargets)
        self.maxLayers = min(max(1, maxLayers), Self.contractMaxLayers)
    }
}

/// Reads messages of the requests topic into ``IncomingMessage``s: a valid query, a cancel, or a rejection
/// that says exactly what is wrong and where.
///
/// Everything the contract promises is checked here, once, before any work starts: the size (before
/// parsing), JSON syntax, unknown fields, types and values, where-clause syntax, named queries, geometry,
/// the message key, and a named credential against the operator's credentials (``CredentialNames``).
/// Layer-specific checks (does the layer have the fields the clause names) happen later in the engine. Never
/// throws, never crashes.
package struct RequestDecoder: Sendable {
    /// The operator's named queries, and whether free `where` clauses are allowed.
    package let namedQueries: NamedQueryCatalog
    /// What a message may cost.
    package let limits: RequestLimits
    /// The credentials a request's `credential` may name.
    package let credentials: CredentialNames
    /// The deadline of a request whose message sets none, in milliseconds after it was received: the worker's
    /// `requestTimeout`, so nothing runs forever. `nil` leaves such a request without a deadline. Applied
    /// here, while the request is made, so that no later step has to change the request.
    package let defaultTimeoutMs: Int64?
    /// Clauses and target URLs read before, shared by the decoder's copies: a client sends the same ones again
    /// and again.
    package let cache = DecodedTextCache()

    /// A decoder resolving `namedWhere` in `namedQueries`, checking `credential` against `credentials`, and
    /// giving a request without a deadline `defaultTimeoutMs` (when positive).
    package init(
        namedQueries: NamedQueryCatalog, limits: RequestLimits = RequestLimits(), credentials: CredentialNames = .unchecked,
        defaultTimeoutMs: Int64? = nil
    ) {
        self.namedQueries = namedQueries
        self.limits = limits
        self.credentials = credentials
        self.defaultTimeoutMs = defaultTimeoutMs.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Reads one message: its `value` bytes (`nil` for a tombstone) and `key`, received at `receivedAt`
    /// (milliseconds since the epoch; `timeoutMs` counts from it).
    package func decode(_ value: [UInt8]?, key: [UInt8]?, receivedAt: Int64) -> IncomingMessage {
        guard let value else {
            return .rejected(RejectedRequest(
                code: .invalidJSON, message: "the message has no value (a tombstone); a request is a JSON object"))
        }
        guard value.count <= limits.maxMessageBytes else {
            return .rejected(RejectedRequest(
                code: .tooLarge,
                message: "the message is \(value.count) bytes; this worker accepts at most \(limits.maxMessageBytes) "
                    + "(send fewer targets or a simpler geometry)",
                details: .object(["size": .number(Double(value.count)), "limit": .number(Double(limits.maxMessageBytes))])))
        }
        let root: ParsedJSON
        do {
            root = try ParsedJSON(
                reading: value, limits: JSONReadingLimits(maxBytes: limits.maxMessageBytes, maxDepth: limits.maxDepth))
        } catch {
            return .rejected(RejectedRequest(code: .invalidJSON, message: "the message is not valid JSON: \(error.message)"))
        }
        guard case .object(let members) = root else {
            return .rejected(RejectedRequest(
                code: .invalidJSON,
                message: "the message is \(RequestFieldReader.describe(root)), not a JSON object; a request is an "
                    + "object with requestId, targets and query"))
        }
        do throws(ContractError) {
            if members["cancel"] != nil {
                return .cancel(taskId: try decodeCancel(root, key: key))
            }
            return .query(try decodeRequest(root, key: key, receivedAt: receivedAt))
        } catch {
            // Read for the rejection only: a valid request has them already.
            let ids = Self.readableIds(members)
            return .rejected(RejectedRequest(
                code: error.code, message: error.message, requestId: ids.requestId, taskId: ids.taskId,
                details: error.details))
        }
    }

    // MARK: Messages

    private func decodeCancel(_ root: ParsedJSON, key: [UInt8]?) throws(ContractError) -> String {
        let reader = try RequestFieldReader(root, path: "")
        try reader.rejectUnknown(allowed: ["taskId", "cancel"])
        guard let taskId = try reader.string("taskId", required: true, length: 1...128) else {
            throw ContractError(.internal, "taskId was not read")
        }
        let flag = try reader.required("cancel")
        guard case .bool(let cancel) = flag else {
            throw ContractError.at("cancel", .invalidType, "expected true, found \(RequestFieldReader.describe(flag))")
        }
        guard cancel else {
            throw ContractError.at(
                "cancel", .invalidValue, "must be true; a message with cancel is a cancel (send nothing to not cancel)")
        }
        try Self.checkKey(key, taskId: taskId)
        return taskId
    }

    private func decodeRequest(_ root: ParsedJSON, key: [UInt8]?, receivedAt: Int64) throws(ContractError) -> QueryRequest {
        let reader = try RequestFieldReader(root, path: "")
        try reader.rejectUnknown(allowed: ["requestId", "taskId", "deadline", "timeoutMs", "targets", "query", "credential", "progress",
            "delivery", "format", "compression"])
        guard let requestId = try reader.string("requestId", required: true, length: 1...128) else {
            throw ContractError(.internal, "requestId was not read")
        }
        let taskId = try reader.string("taskId", length: 1...128) ?? requestId
        try Self.checkKey(key, taskId: taskId)
        let deadline = try readDeadline(reader, receivedAt: receivedAt)
        let targets = try readTargets(reader)
        let query = try readQuery(try reader.required("query"))
        let credential = try reader.string("credential", length: 1...64)
        if let credential {
            guard credential.utf8.allSatisfy(Self.isCredentialNameByte) else {
                throw ContractError.at(
                    "credential", .invalidValue, "\"\(RequestFieldReader.excerpt(credential))\" is not a credential name "
                        + "(letters, digits, '_', '.' and '-')")
            }
        }
        let progress = try reader.bool("progress") ?? false
        let delivery = try ResultDelivery.read(reader)
        try Self.checkCollections(targets, result: query.result)
        // Checks against the operator's credentials come last, so that a message with a mistake hears of the
        // mistake first.
        if let credential { try credentials.check(credential, targets: targets) }
        return QueryRequest(
            requestId: requestId, taskId: taskId, deadline: deadline, receivedAt: receivedAt, targets: targets, query: query,
            credential: credential, progress: progress, delivery: delivery)
    }

    private func readDeadline(_ reader: RequestFieldReader, receivedAt: Int64) throws(ContractError) -> Int64? {
        let text = try reader.string("deadline", length: 0...Int.max)
        let timeout = try reader.integer("timeoutMs", in: 1...9_007_199_254_740_991)
        if text != nil, timeout != nil {
            throw ContractError.at("timeoutMs", .invalidValue, "give deadline or timeoutMs, not both")
        }
        if let text {
            guard let instant = RFC3339.milliseconds(from: text) else {
                throw ContractError.at(
                    "deadline", .invalidValue, "\"\(RequestFieldReader.excerpt(text))\" is not an RFC 3339 date-time "
                        + "with a time zone, such as 2025-06-01T12:00:00Z")
            }
            return instant
        }
        guard let timeout = timeout ?? defaultTimeoutMs else { return nil }
        let (sum, overflow) = receivedAt.addingReportingOverflow(timeout)
        return overflow ? Int64.max : sum
    }

    // MARK: Helpers

    /// The ids a producer would match a rejection by, read leniently: each only when it is itself valid.
    package static func readableIds(_ members: [String: ParsedJSON]) -> (requestId: String?, taskId: String?) {
        func identifier(_ name: String) -> String? {
            guard case .string(let text)? = members[name], (1...128).contains(text.unicodeScalars.count) else { return nil }
            return text
        }
        let requestId = identifier("requestId")
        let taskId = members["taskId"] == nil ? requestId : identifier("taskId")
        return (requestId, taskId)
    }

    /// Producers key every message of a task by its taskId so the task's messages reach one partition, hence
    /// one worker, in order: supersession depends on it. A message without a key is accepted (all
    /// guarantees then rest on a single partition); a different key is refused.
    package static func checkKey(_ key: [UInt8]?, taskId: String) throws(ContractError) {
        guard let key else { return }
        if key.elementsEqual(taskId.utf8) { return }
        let shown = String(validating: key, as: UTF8.self).map { "\"\(RequestFieldReader.excerpt($0))\"" }
            ?? "\(key.count) bytes that are not UTF-8"
        throw ContractError(
            .keyMismatch,
            "the message key \(shown) is not the taskId \"\(RequestFieldReader.excerpt(taskId))\"; key every message by "
                + "its taskId (the requestId when there is no taskId) so a task's messages reach the same worker in order",
            details: .object(["taskId": .string(RequestFieldReader.excerpt(taskId))]))
    }

    package static func isCredentialNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F || byte == 0x2E || byte == 0x2D
    }
}
