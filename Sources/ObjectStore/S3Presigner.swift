import CurlHTTP
import FeatureQuerySupport
import Foundation

/// AWS Signature Version 4 in the query string (a presigned URL): anyone holding the URL may `GET` the object
/// until it expires, with no credentials of their own. This is the claim check a result message carries.
///
/// Computed here in Swift (libcurl only signs requests it sends itself): the canonical request of a `GET` with
/// the `host` header alone signed and an unsigned payload, the string to sign, and the key derived from the
/// secret by HMAC-SHA256 over date, region, service and `aws4_request`.
enum S3Presigner {
    /// S3 refuses presigned URLs that live longer than seven days.
    static let maximumExpiry: Duration = .seconds(7 * 24 * 3600)

    static func presign(
        method: String = "GET", scheme: String, host: String, path: String, region: String, service: String = "s3",
        credentials: AWSCredentials, expires: Duration, now: Date
    ) throws(ObjectStoreError) -> String {
        let seconds = expires.components.seconds
        guard seconds >= 1, expires <= maximumExpiry else {
            throw .configuration("a presigned URL must expire within 1 second to 7 days, not \(expires)")
        }
        let (date, timestamp) = Self.timestamp(now)
        let scope = "\(date)/\(region)/\(service)/aws4_request"
        var parameters = [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope)"),
            ("X-Amz-Date", timestamp),
            ("X-Amz-Expires", String(seconds)),
            ("X-Amz-SignedHeaders", "host"),
        ]
        if let token = credentials.sessionToken { parameters.append(("X-Amz-Security-Token", token)) }
        let query = AWSURIEncoding.canonicalQuery(parameters)
        let canonicalRequest = [method, path, query, "host:\(host)", "", "host", HTTPAWSSigning.unsignedPayload]
            .joined(separator: "\n")
        let stringToSign = ["AWS4-HMAC-SHA256", timestamp, scope, SHA256.hexDigest(Array(canonicalRequest.utf8))]
            .joined(separator: "\n")
        let key = signingKey(secret: credentials.secretAccessKey, date: date, region: region, service: service)
        let signature = SHA256.hex(HMACSHA256.authenticationCode(key: key, message: Array(stringToSign.utf8)))
        return "\(scheme)://\(host)\(path)?\(query)&X-Amz-Signature=\(signature)"
    }

    /// The key for one day, region and service.
    static func signingKey(secret: String, date: String, region: String, service: String) -> [UInt8] {
        var key = Array("AWS4\(secret)".utf8)
        for part in [date, region, service, "aws4_request"] {
            key = HMACSHA256.authenticationCode(key: key, message: Array(part.utf8))
        }
        return key
    }

    /// `yyyyMMdd` and `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func timestamp(_ now: Date) -> (date: String, timestamp: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : String(v) }
        let date = "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))"
        return (date, "\(date)T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z")
    }
}
