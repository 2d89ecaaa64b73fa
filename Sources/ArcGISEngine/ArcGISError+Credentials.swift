extension ArcGISError.Code {
    /// The service wants a token (498/499) and the request carried none: no credential covers the URL.
    package static let authenticationRequired = ArcGISError.Code("authentication_required")
    /// The service rejected the token again right after it was replaced, or the token service refused the
    /// credential.
    package static let credentialRejected = ArcGISError.Code("credential_rejected")
    /// An API key or pre-generated token was rejected: only the operator can replace it.
    package static let credentialExpired = ArcGISError.Code("credential_expired")
    /// The token service could not be reached: trying again later may help.
    package static let tokenServiceUnavailable = ArcGISError.Code("token_service_unavailable")

    /// Every code a credentials failure can put on a layer (the authenticator's codes, issue 13).
    package static let credentials: [ArcGISError.Code] = [
        "authentication_required", "credential_rejected", "credential_expired", "relogin_required", "not_federated",
        "insecure_transport", "token_service_unavailable", "unknown_credential", "credential_unavailable",
        "credential_scope_mismatch",
    ].map { ArcGISError.Code($0) }
}
