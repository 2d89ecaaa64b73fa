extension ArcGISError.Code {
    /// The service wants a token (498/499) and the request carried none: no credential covers the URL.
    public static let authenticationRequired = ArcGISError.Code("authentication_required")
    /// The service rejected the token again right after it was replaced, or the token service refused the
    /// credential.
    public static let credentialRejected = ArcGISError.Code("credential_rejected")
    /// An API key or pre-generated token was rejected: only the operator can replace it.
    public static let credentialExpired = ArcGISError.Code("credential_expired")
    /// The token service could not be reached: trying again later may help.
    public static let tokenServiceUnavailable = ArcGISError.Code("token_service_unavailable")

    /// Every code a credentials failure can put on a layer (the authenticator's codes, issue 13).
    package static let credentials: [ArcGISError.Code] = [
        .authenticationRequired, .credentialRejected, .credentialExpired, ArcGISError.Code("relogin_required"), ArcGISError.Code("not_federated"),
        ArcGISError.Code("insecure_transport"), .tokenServiceUnavailable, ArcGISError.Code("unknown_credential"), ArcGISError.Code("credential_scope_mismatch"),
    ]
}
