import QueryWorker
package import RequestContract

/// What the decoder must answer to any message, checked without knowing what the message was meant to be:
/// one of query, cancel and rejection, with well-formed contents and a specific rejection code.
///
/// Whether a message *should* have been accepted needs the contract's JSON Schema (Python's jsonschema);
/// the CI test and the scale run ask it separately, with ``workerOnlyCodes`` as the codes allowed to refuse
/// a schema-valid message.
package enum RequestFuzzOracle {
    /// Every code the decoder may reject with (`rejected` in docs/contract/README.md); anything else
    /// (`internal`, a code of the engines) would be a decoder fault.
    package static let rejectionCodes: Set<String> = [
        "invalid_json", "missing_field", "invalid_type", "invalid_value", "unknown_field", "too_many_targets", "no_targets",
        "too_large", "invalid_where", "unknown_named_query", "free_clauses_disabled", "unknown_credential",
        "credential_scope_mismatch", "invalid_geometry", "invalid_url", "key_mismatch", "too_many_layers",
        "unsupported_spatial_reference",
    ]

    /// Codes for checks the schema cannot make (clause syntax, the operator's names and limits, geometry
    /// validity, the key); only these may refuse a schema-valid message.
    package static let workerOnlyCodes: Set<String> = [
        "invalid_where", "unknown_named_query", "free_clauses_disabled", "unknown_credential", "credential_scope_mismatch",
        "invalid_geometry", "key_mismatch", "too_large", "invalid_value", "unsupported_spatial_reference", "too_many_layers",
    ]

    /// The outcome's kind and, for a rejection, its code: `query`, `cancel` or the rejection's code.
    package static func label(_ message: IncomingMessage) -> String {
        switch message {
        case .query: "query"
        case .cancel: "cancel"
        case .rejected(let rejection): rejection.code.rawValue
        }
    }

    /// What is wrong with the decoder's answer; empty when it is well formed.
    package static func problems(_ message: IncomingMessage) -> [String] {
        var problems: [String] = []
        func require(_ condition: Bool, _ problem: @autoclosure () -> String) {
            if !condition { problems.append(problem()) }
        }
        switch message {
        case .query(let request):
            require((1...128).contains(request.requestId.unicodeScalars.count), "requestId of \(request.requestId.count) characters")
            require((1...128).contains(request.taskId.unicodeScalars.count), "taskId of \(request.taskId.count) characters")
            require((1...16).contains(request.targetCount), "\(request.targetCount) targets")
        case .cancel(let taskId):
            require((1...128).contains(taskId.unicodeScalars.count), "cancel's taskId of \(taskId.count) characters")
        case .rejected(let rejection):
            require(rejectionCodes.contains(rejection.code.rawValue), "rejection code \(rejection.code) is not a rejection code")
            require(!rejection.message.isEmpty, "rejection without a message")
            require(rejection.message.utf8.count <= 2_000, "rejection message of \(rejection.message.utf8.count) bytes")
            if let path = rejection.path {
                require(rejection.message.hasPrefix(path + ": "), "rejection message does not start with its path \(path)")
            }
        }
        return problems
    }
}
