import FeatureService
import ObjectStore

/// What a stored layer fails with, in the engines' error shape: `store_unavailable` (retryable: the store was
/// down, slow, or gave back other bytes than were written; the same request can run again) or `store_denied`
/// (an operator must act: the credentials were refused or the bucket is missing).
///
/// Messages say what to do about it and name the object (`s3://bucket/key`), never credentials: the S3 bridge's
/// messages carry S3's error text and the key, and a presigned URL never reaches an error.
enum StoreFailure {
    /// `error` (anything the upload threw) for the layer at `layer` writing `target`.
    static func map(_ error: any Error, layer: String, target: String) -> FeatureServiceError {
        switch error {
        case let error as FeatureServiceError:
            return error
        case let error as ObjectStoreError:
            return map(error, layer: layer, target: target)
        case is CancellationError:
            return FeatureServiceError(.cancelled, "writing \(target) was cancelled", layer: layer)
        case let error as StoredObjectUpload.Failure:
            return unavailable("the result store did not keep \(target) as written: \(error.message); the request can run again", layer: layer)
        case let error as CompressionFailure:
            return unavailable("\(target) could not be written: \(error.message)", layer: layer)
        default:
            return unavailable("writing \(target) failed: \(error)", layer: layer)
        }
    }

    /// The bridge's codes: refusals an operator must fix are `store_denied`, everything else `store_unavailable`.
    static func map(_ error: ObjectStoreError, layer: String, target: String) -> FeatureServiceError {
        let s3Code = error.s3Code.map { " (\($0))" } ?? ""
        switch error.code {
        case .accessDenied:
            return denied(
                "the result store refused the worker's credentials writing \(target)\(s3Code): check the AWS credentials the "
                    + "worker runs with (environment, shared credentials file or web identity) and that they may write the bucket",
                layer: layer, status: error.httpStatus)
        case .noSuchBucket:
            return denied(
                "the result store has no bucket for \(target)\(s3Code): create it or correct the worker's resultStore setting",
                layer: layer, status: error.httpStatus)
        case .credentials, .invalidConfiguration:
            return denied("the result store cannot be used for \(target): \(error.message)", layer: layer, status: error.httpStatus)
        case .slowDown:
            return unavailable(
                "the result store kept asking the worker to slow down writing \(target)\(s3Code); the request can run again",
                layer: layer, status: error.httpStatus, retryAfter: error.retryAfter)
        case .checksumMismatch:
            return unavailable(
                "the result store received other bytes than were sent for \(target)\(s3Code); the request can run again",
                layer: layer, status: error.httpStatus)
        default:
            return unavailable(
                "the result store could not be written (\(target)): \(error.message); the request can run again", layer: layer,
                status: error.httpStatus, retryAfter: error.retryAfter)
        }
    }

    static func unavailable(_ message: String, layer: String, status: Int? = nil, retryAfter: Duration? = nil) -> FeatureServiceError {
        FeatureServiceError(.storeUnavailable, message, layer: layer, isRetryable: true, httpStatus: status, retryAfter: retryAfter)
    }

    static func denied(_ message: String, layer: String, status: Int?) -> FeatureServiceError {
        FeatureServiceError(.storeDenied, message, layer: layer, isRetryable: false, httpStatus: status)
    }
}
