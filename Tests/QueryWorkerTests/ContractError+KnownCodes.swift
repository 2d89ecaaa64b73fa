import EngineExecution
import FeatureService
@testable import RequestContract

@testable import QueryWorker

extension ContractError.Code {
    /// Every code a worker of this version can put in an outcome's `error.code` (or a failed layer's): its own
    /// rejections and outcomes, the host policy's `host_not_allowed`, and the feature-service engines' codes, which
    /// failed layers (and requests whose layers all failed) carry unchanged. docs/contract/README.md lists
    /// each with its meaning and retryability; a test compares that table with this list, so a new code
    /// cannot ship undocumented.
    static let allKnown: [ContractError.Code] = rejections + outcomes + authentication + engine

    /// Status `rejected`: the message is not a request this worker will run.
    static let rejections: [ContractError.Code] = [
        .invalidJSON, .tooLarge, .missingField, .invalidType, .invalidValue, .unknownField, .noTargets,
        .tooManyTargets, .tooManyLayers, .invalidURL, .invalidWhere, .freeClausesDisabled, .unknownNamedQuery,
        .invalidGeometry, .unsupportedSpatialReference, .keyMismatch, .unknownCredential, .credentialScopeMismatch,
        .hostNotAllowed, .storeNotConfigured,
    ]

    /// Outcomes of accepted requests that are the worker's own (`failed`, `superseded`, `cancelled`, `expired`).
    static let outcomes: [ContractError.Code] = [
        .superseded, .cancelRequested, .shutdown, .partitionRevoked, .deadlineExceeded, .requestTooOld, .resultTooLarge,
        .layersFailed, .internal,
    ]

    /// The credentials' codes, as failed layers carry them: every `AuthenticationFailure` code the
    /// engines pass on (those the decoder also answers on arrival, `unknown_credential` and
    /// `credential_scope_mismatch`, are listed with the rejections).
    static let authentication: [ContractError.Code] = [
        AuthenticationFailure.Code.authenticationRequired, .credentialRejected, .credentialExpired, .reloginRequired,
        .notFederated, .insecureTransport, .tokenServiceUnavailable, .credentialUnavailable, .unknownCredential,
        .credentialScopeMismatch,
    ].map { ContractError.Code(rawValue: $0.rawValue) }.filter { !rejections.contains($0) }

    /// The engines' codes, as failed layers carry them (those shared with the rejections, `invalid_url` and
    /// `too_many_layers`, are listed there), and the router's `unsupported_target`. The OGC engine's own codes
    /// join `FeatureServiceError.Code.layerCodes`, and so this list, when it lands.
    static let engine: [ContractError.Code] = FeatureServiceError.Code.layerCodes
        .map { ContractError.Code($0.rawValue) }
        .filter { !rejections.contains($0) && !authentication.contains($0) }
}
