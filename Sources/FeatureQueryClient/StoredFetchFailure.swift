import CurlHTTP
import Foundation

/// The store's and the network's refusals as the client's typed errors, each saying what to do. Messages name the
/// object by its `s3://` URL, never by the presigned URL (whose signature is a credential for an hour).
enum StoredFetchFailure {
    /// An HTTP status other than a range or the whole object.
    static func status(_ response: HTTPResponse, location: StoredResultLocation, now: Date = Date()) -> FeatureQueryError {
        let body = String(decoding: response.body.prefix(2_048), as: UTF8.self)
        let storeSays = body.contains("expired") || body.contains("Expired")
        switch response.status {
        case 403 where now >= location.expiresAt || storeSays, 400 where storeSays:
            return FeatureQueryError(
                .storedResultExpired,
                "the presigned URL of \(location.url) expired at \(location.expiresAt) (HTTP \(response.status)): submit the job again "
                    + "for a fresh location, and fetch stored results soon after their outcome arrives",
                isRetryable: true)
        case 401, 403:
            return FeatureQueryError(
                .storedResultForbidden,
                "the store refused the presigned URL of \(location.url) (HTTP \(response.status)) before it expired: the worker's "
                    + "store credentials or the bucket's policy may have changed, or the URL was altered; ask the operator")
        case 404:
            return FeatureQueryError(
                .storedResultMissing,
                "the store has no object \(location.url) (HTTP 404): the bucket's lifecycle rule may have deleted it; submit the job again",
                isRetryable: true)
        case 429, 500...:
            return FeatureQueryError(
                .storedResultUnavailable, "the store failed to serve \(location.url) (HTTP \(response.status)) after retries; try again later",
                isRetryable: true)
        default:
            return FeatureQueryError(
                .storedResultUnavailable, "the store answered HTTP \(response.status) for \(location.url)\(code(body).map { " (\($0))" } ?? "")")
        }
    }

    /// The transfer failed (connect, DNS, TLS, timeout, a broken connection).
    static func network(_ error: HTTPError, location: StoredResultLocation) -> FeatureQueryError {
        FeatureQueryError(
            .storedResultUnavailable, "\(location.url) could not be fetched (\(error.code)): \(redacted(error.message, location))",
            isRetryable: error.isRetryable || error.code == .connect || error.code == .timeout || error.code == .network
                || error.code == .dns)
    }

    /// S3's error `<Code>` in `body`: only that, since an error body may echo the signature it refused.
    static func code(_ body: String) -> String? {
        guard let start = body.range(of: "<Code>"), let end = body.range(of: "</Code>", range: start.upperBound..<body.endIndex) else { return nil }
        return String(body[start.upperBound..<end.lowerBound].prefix(64))
    }

    /// `message` without the presigned URL's query (its signature): the HTTP client names the URL it failed on.
    static func redacted(_ message: String, _ location: StoredResultLocation) -> String {
        var text = message.replacingOccurrences(of: location.httpURL, with: location.url)
        if let query = location.httpURL.firstIndex(of: "?") {
            let signed = String(location.httpURL[location.httpURL.index(after: query)...])
            if !signed.isEmpty { text = text.replacingOccurrences(of: signed, with: "…") }
        }
        return text
    }

    /// The calling task was cancelled.
    static func cancelled(_ location: StoredResultLocation) -> FeatureQueryError {
        FeatureQueryError(.callCancelled, "fetching \(location.url) was cancelled")
    }
}
