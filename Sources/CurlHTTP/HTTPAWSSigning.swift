/// AWS Signature Version 4 for one request, computed by libcurl itself (`CURLOPT_AWS_SIGV4`): how the object
/// store's requests are authenticated without a signer of our own for every header and body.
///
/// What libcurl 7.88 signs, and what the caller must therefore send (checked against moto's verifier):
/// - the canonical query is the URL's query **as written** (7.88 neither sorts nor re-encodes it): the caller
///   writes it canonically, keys sorted, every key with `=`, RFC 3986 escapes in upper case (`?uploads=`,
///   `?partNumber=1&uploadId=…`); the path likewise (S3 does not normalise it);
/// - the payload hash is the `x-amz-content-sha256` header when there is one; without one libcurl hashes the
///   body but sends no such header, which S3 refuses, so the client adds the header (the SHA-256 of the body)
///   when the request has none;
/// - every header of the request is signed, so a signed request carries no `Expect:` removal line (verifiers
///   drop `expect` from what they sign), and the session token travels as `x-amz-security-token`.
///
/// Such a request is sent with its whole URL (never as an origin-form target, whose query libcurl would not
/// see), and its handle is reset afterwards. ``description`` never shows the secret or the token, and
/// verbose output redacts `Authorization` and the token header.
package struct HTTPAWSSigning: Sendable, Hashable, CustomStringConvertible {
    /// The region the request is signed for, like `us-east-1`.
    package var region: String
    /// The service's signing name, like `s3` or `sts`.
    package var service: String
    package var accessKeyID: String
    package var secretAccessKey: String
    /// Temporary credentials' session token, sent as `x-amz-security-token` (and signed).
    package var sessionToken: String?

    package init(region: String, service: String, accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.region = region
        self.service = service
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// libcurl's `provider1:provider2:region:service`.
    var curlProvider: String { "aws:amz:\(region):\(service)" }

    /// Never prints the secret or the token.
    package var description: String {
        "HTTPAWSSigning(\(service) in \(region), key: \(accessKeyID)\(sessionToken == nil ? "" : ", with session token"))"
    }

    /// The header that carries the payload hash.
    package static let payloadHashHeader = "x-amz-content-sha256"
    /// The header that carries a session token.
    package static let sessionTokenHeader = "x-amz-security-token"
    /// The payload hash of a body that is not signed.
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// Refuses what libcurl would cut or misparse (it reads each part up to 64 bytes, up to a `:`).
    func validate() throws(HTTPError) {
        for (name, part) in [("region", region), ("service", service)] {
            guard !part.isEmpty, part.utf8.count <= 64, part.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }) else {
                throw HTTPError.invalid("the AWS signing \(name) '\(RequestValidation.printable(part))' is empty, too long or not plain ASCII")
            }
        }
        guard !accessKeyID.isEmpty, !accessKeyID.contains(":"), !accessKeyID.contains(where: \.isNewline) else {
            throw HTTPError(code: .credential, message: "the AWS access key id is empty or holds ':' or a line break")
        }
        if let sessionToken, sessionToken.contains(where: \.isNewline) {
            throw HTTPError(code: .credential, message: "the AWS session token holds a line break")
        }
    }
}
