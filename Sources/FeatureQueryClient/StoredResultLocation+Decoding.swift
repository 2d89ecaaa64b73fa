import FeatureQuerySupport
import Foundation
package import QueryOutcomes

extension StoredResultLocation {
    /// The contract's `location` of the layer at `url`, checked: a location the client could not use (no presigned
    /// URL, a size below zero, a checksum that is not a SHA-256, neither or both counts) makes the outcome
    /// ``FeatureQueryError/Code/malformedOutcome`` at once, not a confusing failure when it is fetched.
    package init(_ location: Outcome.Location, layer url: String) throws(FeatureQueryError) {
        func malformed(_ what: String) -> FeatureQueryError {
            FeatureQueryError(.malformedOutcome, "the location of layer \(url) \(what)")
        }
        guard location.url.hasPrefix("s3://") else { throw malformed("has url '\(location.url)', not s3://bucket/key") }
        guard let http = URL(string: location.httpUrl), http.scheme == "https" || http.scheme == "http", http.host != nil else {
            throw malformed("has no usable httpUrl")
        }
        guard let expires = RFC3339.milliseconds(from: location.expiresAt) else {
            throw malformed("has expiresAt '\(location.expiresAt)', not an RFC 3339 date-time")
        }
        guard location.bytes >= 0 else { throw malformed("has bytes \(location.bytes)") }
        let hex = location.sha256.utf8
        guard hex.count == 64, hex.allSatisfy({ ASCII.hexValue($0) != nil }) else {
            throw malformed("has sha256 '\(location.sha256)', not 64 hex digits")
        }
        guard (location.features == nil) != (location.ids == nil), (location.features ?? location.ids ?? -1) >= 0 else {
            throw malformed("must count either features or ids")
        }
        self.init(
            url: location.url, httpURL: location.httpUrl, expiresAt: Date(timeIntervalSince1970: Double(expires) / 1000),
            bytes: location.bytes, sha256: location.sha256.lowercased(), contentType: location.contentType,
            contentEncoding: location.contentEncoding, features: location.features, ids: location.ids)
    }
}
