package import CurlHTTP
import Foundation

/// The one STS call the worker needs: `AssumeRoleWithWebIdentity`, which trades an OIDC token (Kubernetes'
/// projected service-account token) for temporary credentials of a role. The call itself is unsigned: the token
/// is the proof.
package struct STSClient: Sendable {
    let http: HTTPClient
    /// `https://sts.amazonaws.com`, a regional `https://sts.REGION.amazonaws.com`, or a test server.
    package let endpoint: String

    package init(http: HTTPClient, endpoint: String = "https://sts.amazonaws.com") {
        self.http = http
        self.endpoint = endpoint
    }

    /// Temporary credentials for `roleARN`, valid for `duration` (STS allows 15 minutes to the role's maximum).
    package func assumeRoleWithWebIdentity(
        roleARN: String, sessionName: String, webIdentityToken: String, duration: Duration = .seconds(3600)
    ) async throws -> AWSCredentials {
        let request = HTTPRequest.formPost(
            url: endpoint.hasSuffix("/") ? endpoint : endpoint + "/",
            fields: [
                ("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", roleARN),
                ("RoleSessionName", sessionName), ("WebIdentityToken", webIdentityToken),
                ("DurationSeconds", String(duration.components.seconds)),
            ])
        let response: HTTPResponse
        do {
            response = try await http.execute(request)
        } catch let error as HTTPError {
            throw S3ErrorMapping.transport(error, operation: "AssumeRoleWithWebIdentity", target: roleARN)
        }
        guard response.status == 200 else {
            throw S3ErrorMapping.response(response, operation: "AssumeRoleWithWebIdentity", target: roleARN)
        }
        let xml = Substring(response.bodyString)
        guard let block = S3XML.elements("Credentials", in: xml).first, let key = S3XML.text("AccessKeyId", in: block),
            let secret = S3XML.text("SecretAccessKey", in: block)
        else {
            throw ObjectStoreError(
                code: .malformedResponse, message: "AssumeRoleWithWebIdentity for \(roleARN) answered without credentials",
                httpStatus: response.status)
        }
        let expiration = S3XML.text("Expiration", in: block).flatMap(Self.parseTimestamp)
        return AWSCredentials(
            accessKeyID: key, secretAccessKey: secret, sessionToken: S3XML.text("SessionToken", in: block), expiration: expiration)
    }

    /// STS writes `2026-12-06T07:00:00Z` or with fractional seconds.
    static func parseTimestamp(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
