import CurlHTTP
import Foundation

/// Turns what went wrong on the way to the store, or what the store answered, into an ``ObjectStoreError``:
/// S3's XML error body (`<Error><Code>…</Code><Message>…</Message></Error>`) when there is one, the HTTP status
/// otherwise (HEAD answers have no body).
enum S3ErrorMapping {
    /// A transport failure: the store could not be reached or stopped answering.
    static func transport(_ error: HTTPError, operation: String, target: String) -> ObjectStoreError {
        switch error.code {
        case .connect, .dns, .timeout, .network:
            return ObjectStoreError(
                code: .storeUnavailable,
                message: "the object store could not be reached for \(operation) of \(target): \(error.message)",
                isRetryable: true)
        case .tls, .credential, .connectionRefusedByPolicy:
            return ObjectStoreError(
                code: .storeUnavailable,
                message: "the object store's connection was refused for \(operation) of \(target) (check the endpoint and its certificate): \(error.message)",
                isFatal: true)
        default:
            return ObjectStoreError(
                code: .requestFailed, message: "\(operation) of \(target) failed: \(error.message)", isRetryable: error.isRetryable)
        }
    }

    /// An answer with a status outside 2xx, or a 200 whose body is an `<Error>` (S3 completes multipart uploads
    /// that way).
    static func response(_ response: HTTPResponse, operation: String, target: String) -> ObjectStoreError {
        let xml = Substring(response.bodyString)
        let errorBody = S3XML.elements("Error", in: xml).first
        let s3Code = errorBody.flatMap { S3XML.text("Code", in: $0) }
        let s3Message = errorBody.flatMap { S3XML.text("Message", in: $0) }
        let retryAfter = response.headers["Retry-After"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .map { Duration.seconds(max(0, $0)) }
        let said = s3Message.map { ": \($0)" } ?? ""
        let status = response.status
        func error(_ code: ObjectStoreError.Code, _ advice: String, retryable: Bool = false, fatal: Bool = false) -> ObjectStoreError {
            ObjectStoreError(
                code: code, message: "\(operation) of \(target) failed (HTTP \(status)\(s3Code.map { " \($0)" } ?? ""))\(said); \(advice)",
                isRetryable: retryable, isFatal: fatal, retryAfter: retryAfter, httpStatus: status, s3Code: s3Code)
        }
        switch s3Code ?? "" {
        case "SlowDown":
            return error(.slowDown, "the store asks for fewer requests: retry later", retryable: true)
        case "NoSuchBucket":
            return error(.noSuchBucket, "create the bucket or correct the configured location", fatal: true)
        case "NoSuchKey":
            return error(.noSuchKey, "the object does not exist")
        case "NoSuchUpload":
            return error(.noSuchUpload, "the multipart upload was completed, aborted or expired: start a new one")
        case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "InvalidClientTokenId",
            "AccountProblem", "AllAccessDisabled", "InvalidSecurity":
            return error(.accessDenied, "check the access key, its secret, the session token and the bucket's policy", fatal: true)
        case "BadDigest", "XAmzContentSHA256Mismatch", "InvalidDigest":
            return error(.checksumMismatch, "the body was damaged on the way: send it again", retryable: true)
        case "InternalError", "ServiceUnavailable":
            return error(.storeUnavailable, "the store failed: retry later", retryable: true)
        case "InvalidPart", "InvalidPartOrder", "EntityTooSmall", "EntityTooLarge", "InvalidArgument", "InvalidRequest", "MalformedXML":
            return error(.invalidRequest, "the store refused the request as malformed")
        default:
            break
        }
        switch status {
        case 503:
            return error(.storeUnavailable, "the store is unavailable: retry later", retryable: true)
        case 500, 502, 504:
            return error(.storeUnavailable, "the store failed: retry later", retryable: true)
        case 408, 429:
            return error(.slowDown, "the store asks for fewer requests: retry later", retryable: true)
        case 401, 403:
            return error(.accessDenied, "check the access key, its secret, the session token and the bucket's policy", fatal: true)
        case 404:
            return error(.noSuchKey, "the object (or its bucket) does not exist")
        default:
            return error(.requestFailed, "the store refused the request")
        }
    }
}
