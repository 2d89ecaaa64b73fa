package import CurlHTTP
package import FeatureService

extension FeatureServiceError {
    /// The layer's error for a transfer that failed below HTTP: `cancelled` for a cancelled transfer,
    /// `limit_exceeded` for a body larger than the HTTP client allows, otherwise `transport`, retryable as the
    /// HTTP client judged. `details` carries the HTTP client's code and libcurl's code and message, for logs.
    package init(transfer error: HTTPError, layer: String, redact: (String) -> String = { $0 }) {
        var details = ["http error: \(error.code.rawValue)"]
        if let curlCode = error.curlCode {
            details.append("curl code \(curlCode)\(error.curlMessage.map { ": \($0)" } ?? "")")
        }
        let reason = redact(error.message)
        switch error.code {
        case .cancelled:
            self.init(.cancelled, "the request to \(layer) was cancelled", layer: layer, details: details)
        case .tooLarge:
            self.init(
                .limitExceeded, "the response from \(layer) is larger than the HTTP client allows: \(reason)",
                layer: layer, details: details)
        default:
            self.init(
                .transport, "the request to \(layer) failed before an HTTP answer arrived: \(reason)", layer: layer,
                isRetryable: error.isRetryable, details: details)
        }
    }

    /// The layer's error for a credentials failure: its code, message and retryability as the authenticator
    /// said them.
    package init(_ failure: AuthenticationFailure, layer: String) {
        self.init(Code(failure.code.rawValue), failure.message, layer: layer, isRetryable: failure.isRetryable)
    }
}

extension ParameterRedactor {
    /// `error` with every secret query parameter value in its message and details redacted.
    package func redacting(_ error: FeatureServiceError) -> FeatureServiceError {
        guard !isEmpty else { return error }
        var error = error
        error.message = redact(error.message)
        error.details = redact(error.details)
        return error
    }
}
