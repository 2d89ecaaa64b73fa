package import CurlHTTP
import FeatureQuerySupport
package import Foundation

/// S3 operations on one bucket, over the package's libcurl client, for the worker's large results (the claim
/// check: the result goes to the store, the message carries a presigned URL).
///
/// Requests are signed by libcurl (``HTTPAWSSigning``) with credentials asked from the provider before each
/// request. Every method throws an ``ObjectStoreError`` (or `CancellationError` when its task is cancelled,
/// which aborts the transfer); retrying is the caller's decision, by ``ObjectStoreError/isRetryable`` and
/// ``ObjectStoreError/retryAfter``.
package final class S3Client: Sendable {
    package struct Configuration: Sendable, Hashable {
        package var bucket: String
        /// The region requests are signed for (any name for stores that ignore it, like `us-east-1`).
        package var region: String
        package var endpoint: S3Endpoint
        /// The whole request, including the body; `nil` keeps the HTTP client's.
        package var timeout: Duration?

        /// A bucket on AWS (virtual-hosted), or at `endpoint` (path-style).
        package init(bucket: String, region: String, endpoint: S3Endpoint? = nil, timeout: Duration? = nil) {
            self.bucket = bucket
            self.region = region
            self.endpoint = endpoint ?? .aws(region: region)
            self.timeout = timeout
        }
    }

    package let configuration: Configuration
    let http: HTTPClient
    let credentialsProvider: any AWSCredentialsProvider

    package init(http: HTTPClient, configuration: Configuration, credentials: any AWSCredentialsProvider) throws(ObjectStoreError) {
        guard S3Location.isValidBucketName(configuration.bucket) else {
            throw .configuration("'\(configuration.bucket)' is not a valid bucket name")
        }
        self.http = http
        self.configuration = configuration
        self.credentialsProvider = credentials
    }

    /// `s3://bucket/key`, for messages.
    func target(_ key: String) -> String { "s3://\(configuration.bucket)/\(key)" }

    /// Sends one signed request and returns its 2xx answer; anything else becomes an ``ObjectStoreError``.
    func send(
        _ method: HTTPRequest.Method, key: String, query: [(String, String)] = [], body: [UInt8]? = nil,
        headers: HTTPHeaders = [:], operation: String
    ) async throws -> HTTPResponse {
        let credentials = try await credentialsProvider.credentials()
        let endpoint = configuration.endpoint
        var headers = headers
        // S3 requires the payload hash header; libcurl 7.88 signs with it when present.
        headers.replace(HTTPAWSSigning.payloadHashHeader, SHA256.hexDigest(body ?? []))
        let signing = HTTPAWSSigning(
            region: configuration.region, service: "s3", accessKeyID: credentials.accessKeyID,
            secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken)
        let request = HTTPRequest(
            method: method,
            url: endpoint.url(bucket: configuration.bucket, key: key, query: AWSURIEncoding.canonicalQuery(query)),
            headers: headers, body: body,
            options: HTTPRequestOptions(timeout: configuration.timeout, awsSigning: signing))
        let response: HTTPResponse
        do {
            response = try await http.execute(request)
        } catch let error as HTTPError {
            throw S3ErrorMapping.transport(error, operation: operation, target: target(key))
        }
        guard (200..<300).contains(response.status) else {
            throw S3ErrorMapping.response(response, operation: operation, target: target(key))
        }
        return response
    }

    /// The ETag of an answer, which S3 always sends for writes.
    func eTag(_ response: HTTPResponse, operation: String, key: String) throws(ObjectStoreError) -> String {
        guard let eTag = response.headers["ETag"], !eTag.isEmpty else {
            throw ObjectStoreError(code: .malformedResponse, message: "\(operation) of \(target(key)) answered without an ETag", httpStatus: response.status)
        }
        return eTag
    }
}

extension S3Client {
    /// Stores `body` as one object (up to 5 GiB; results above a few MiB go through a multipart upload instead,
    /// so a failed part is sent again alone) and returns its ETag.
    @discardableResult
    package func putObject(
        key: String, body: [UInt8], contentType: String = "application/octet-stream", contentEncoding: String? = nil
    ) async throws -> String {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let contentEncoding { headers.replace("Content-Encoding", contentEncoding) }
        let response = try await send(.put, key: key, body: body, headers: headers, operation: "PutObject")
        return try eTag(response, operation: "PutObject", key: key)
    }

    /// The object's size, ETag and content type.
    package func headObject(key: String) async throws -> S3ObjectHead {
        let response = try await send(.head, key: key, operation: "HeadObject")
        guard let length = response.headers["Content-Length"].flatMap({ Int($0) }) else {
            throw ObjectStoreError(code: .malformedResponse, message: "HeadObject of \(target(key)) answered without a Content-Length")
        }
        return S3ObjectHead(
            size: length, eTag: try eTag(response, operation: "HeadObject", key: key), contentType: response.headers["Content-Type"])
    }

    /// A URL that lets whoever holds it `GET` the object for `expires` (1 second to 7 days), signed with the
    /// current credentials (temporary credentials end it sooner, when they expire).
    package func presignedGetURL(key: String, expires: Duration, now: Date = Date()) async throws(ObjectStoreError) -> String {
        let credentials = try await credentialsProvider.credentials()
        let endpoint = configuration.endpoint
        return try S3Presigner.presign(
            scheme: endpoint.scheme, host: endpoint.host(bucket: configuration.bucket),
            path: endpoint.path(bucket: configuration.bucket, key: key), region: configuration.region,
            credentials: credentials, expires: expires, now: now)
    }
}
